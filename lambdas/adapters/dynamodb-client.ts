import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

// One client per container. The endpoint comes from the SDK's own configuration
// (`AWS_ENDPOINT_URL_DYNAMODB` locally, the regional endpoint in AWS).
export const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});
