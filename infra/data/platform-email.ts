import { ConfigurationSet, EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** The SES v2 sending identity (domain, Easy DKIM) and the configuration set every email uses. */
export class PlatformEmail extends Construct {
  readonly configurationSetName: string;

  constructor(scope: Construct, id: string, props: { domain: string }) {
    super(scope, id);
    const configurationSet = new ConfigurationSet(this, 'ConfigurationSet', { reputationMetrics: true });
    new EmailIdentity(this, 'Identity', { identity: Identity.domain(props.domain), configurationSet });
    this.configurationSetName = configurationSet.configurationSetName;
  }
}
