import { Validations } from 'aws-cdk-lib';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { retained } from '#infra/retained.ts';
import { type Auth0M2mKey, auth0M2mScopes, type SecretKey } from '#lambdas/grants.ts';
import { type OriginSecret, originSecretSendKey } from '#lambdas/http/edge.ts';

// The secrets the functions read at cold start (cached): operators fill their values after the
// first deploy (docs/deploying.md). Placeholders are generated so nothing real is in a template.

function m2mDescription(key: Auth0M2mKey): string {
  return `Auth0 machine-to-machine credentials (${auth0M2mScopes[key].join(' ')}) for the Management API: JSON {"clientId","clientSecret"}`;
}

const descriptions: Record<SecretKey, string> = {
  auth0Registration: m2mDescription('auth0Registration'),
  auth0ReadUsers: m2mDescription('auth0ReadUsers'),
  auth0VerificationEmail: m2mDescription('auth0VerificationEmail'),
  auth0KycSync: m2mDescription('auth0KycSync'),
  auth0Erasure: m2mDescription('auth0Erasure'),
  auth0OrganizationTeam: m2mDescription('auth0OrganizationTeam'),
  personaApiKey: 'Persona API key (persona_production_... or persona_sandbox_...)',
  personaWebhookSecret:
    'Persona webhook secret(s) (wbhsec_...); during rotation, old and new separated by a space',
  originVerify:
    'Origin secret CloudFront adds to /api/* requests (x-origin-verify): JSON {"current","previous"}; the API accepts both',
};

export class PlatformSecrets extends Construct {
  readonly secrets: Record<SecretKey, ISecret>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const make = (key: SecretKey, idName: string) => {
      const secret = new Secret(this, idName, {
        description: descriptions[key],
        removalPolicy: retained,
        generateSecretString: { passwordLength: 32, excludePunctuation: true },
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Issued by Auth0 or Persona, not by AWS: no rotation Lambda can mint them. Rotated by hand as docs/operating.md describes (the webhook secret with two values during the switch).',
      });
      return secret;
    };
    this.secrets = {
      // One secret per M2M application, each holding only its scopes (ADR 0034).
      auth0Registration: make('auth0Registration', 'Auth0Registration'),
      auth0ReadUsers: make('auth0ReadUsers', 'Auth0ReadUsers'),
      auth0VerificationEmail: make('auth0VerificationEmail', 'Auth0VerificationEmail'),
      auth0KycSync: make('auth0KycSync', 'Auth0KycSync'),
      auth0Erasure: make('auth0Erasure', 'Auth0Erasure'),
      auth0OrganizationTeam: make('auth0OrganizationTeam', 'Auth0OrganizationTeam'),
      personaApiKey: make('personaApiKey', 'PersonaApiKey'),
      personaWebhookSecret: make('personaWebhookSecret', 'PersonaWebhookSecret'),
      originVerify: this.originSecret(),
    };
  }
  /**
   * Ours, not a vendor's: generated at the first deploy (no placeholder to fill). CloudFront reads
   * `current` at deploy time; rotated by hand with an overlap (docs/operating.md), since CloudFront
   * only picks a new value up with a deploy of the site stack.
   */
  private originSecret(): Secret {
    const initial: Omit<OriginSecret, 'current'> = { previous: '' };
    const secret = new Secret(this, 'OriginVerify', {
      description: descriptions.originVerify,
      removalPolicy: retained,
      generateSecretString: {
        secretStringTemplate: JSON.stringify(initial),
        generateStringKey: originSecretSendKey,
        passwordLength: 48,
        excludePunctuation: true,
      },
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A rotation Lambda could change the value but not CloudFront, which only takes a new origin header with a deploy of the site stack: rotated by hand with an overlap of two accepted values (docs/operating.md).',
    });
    return secret;
  }
}
