import { createFaultKnob, faultSchemas } from '#local/faults.ts';
import { HttpError, newId, newSessionToken } from './http-util.ts';
import { type InquiryField, type InquiryRecord, InquiryStore, inquiryResource } from './store.ts';
import type { Outcome, PersonaOptions } from './types.ts';
import { verificationResource, verificationsFor } from './verifications.ts';
import { WebhookDrops } from './webhook-drops.ts';
import { defaultRetryDelaysMs, WebhookDispatcher } from './webhooks.ts';

/** The emulator's state and the inquiry life cycle; HTTP layers (api.ts, widget.ts) call into it. */
export class PersonaEmulator {
  readonly store: InquiryStore;
  readonly webhooks: WebhookDispatcher;
  /** Inquiries whose webhooks are never sent (a local control endpoint sets it). */
  readonly webhookDrops = new WebhookDrops();
  /** Webhook fault knob (ADR 0035), set through `POST /__local/faults` with `{ personaWebhooks }`. */
  readonly faults = createFaultKnob(faultSchemas.personaWebhooks);

  constructor(readonly options: PersonaOptions) {
    this.store = new InquiryStore(options.dataDir);
    this.webhooks = new WebhookDispatcher(
      options.retryDelaysMs ?? defaultRetryDelaysMs,
      options.log ?? true,
      options.deliveryTimeoutMs,
      this.faults,
    );
    this.webhooks.addSubscriber(options.webhook.url, options.webhook.secret, ['*']);
  }

  createInquiry(input: {
    templateId: string | undefined;
    referenceId: string | null;
    fields?: Record<string, InquiryField>;
    note?: string | null;
    tags?: string[];
  }): InquiryRecord {
    if (input.templateId !== this.options.templateId) {
      throw new HttpError(
        422,
        'Unprocessable entity',
        input.templateId === undefined
          ? 'inquiry-template-id is required'
          : `Inquiry template ${input.templateId} not found`,
      );
    }
    const inquiry = this.store.create({
      templateId: input.templateId,
      environmentId: this.options.environmentId,
      referenceId: input.referenceId,
      ...(input.fields === undefined ? {} : { fields: input.fields }),
      ...(input.note === undefined ? {} : { note: input.note }),
      ...(input.tags === undefined ? {} : { tags: input.tags }),
    });
    this.emit('inquiry.created', inquiry);
    return inquiry;
  }

  getInquiry(id: string): InquiryRecord {
    const inquiry = this.store.get(id);
    if (inquiry === undefined) throw new HttpError(404, 'Record not found', `Inquiry ${id} not found`);
    return inquiry;
  }

  /** New session token (the old one stops working). */
  resume(inquiry: InquiryRecord): string {
    if (inquiry.redactedAt !== null) throw new HttpError(409, 'Conflict', 'Inquiry has been redacted');
    const token = newSessionToken();
    this.store.update(inquiry, (inq) => {
      inq.sessionToken = token;
      inq.updatedAt = this.store.nextTime();
    });
    return token;
  }

  /** created -> pending, with inquiry.started. No-op otherwise. */
  start(inquiry: InquiryRecord): void {
    if (inquiry.status !== 'created') return;
    this.store.update(inquiry, (inq) => {
      const now = this.store.nextTime();
      inq.status = 'pending';
      inq.startedAt = now;
      inq.updatedAt = now;
      inq.sessionToken ??= newSessionToken();
    });
    this.emit('inquiry.started', inquiry);
  }

  /** The tester's choice in the widget. Returns the status the widget reports to the SDK. */
  applyOutcome(inquiry: InquiryRecord, outcome: Outcome): 'completed' | 'failed' {
    if (inquiry.status !== 'created' && inquiry.status !== 'pending') {
      throw new HttpError(409, 'Conflict', `Inquiry is already ${inquiry.status}`);
    }
    this.start(inquiry);
    if (outcome === 'fail') {
      this.transition(inquiry, 'inquiry.failed', (inq, now) => {
        inq.status = 'failed';
        inq.failedAt = now;
        inq.verifications = verificationsFor(outcome, now);
      });
      return 'failed';
    }
    this.transition(inquiry, 'inquiry.completed', (inq, now) => {
      inq.status = 'completed';
      inq.completedAt = now;
      inq.verifications = verificationsFor(outcome, now);
    });
    if (outcome === 'approve') {
      this.transition(inquiry, 'inquiry.approved', (inq, now) => {
        inq.status = 'approved';
        inq.decisionedAt = now;
      });
    } else if (outcome === 'decline') {
      this.transition(inquiry, 'inquiry.declined', (inq, now) => {
        inq.status = 'declined';
        inq.decisionedAt = now;
      });
    } else {
      this.transition(inquiry, 'inquiry.marked-for-review', (inq, now) => {
        inq.status = 'needs_review';
        inq.markedForReviewAt = now;
      });
    }
    return 'completed';
  }

  /**
   * Persona's `POST /inquiries/{id}/expire`: a created or pending inquiry becomes `expired` (its
   * sessions end), with inquiry.expired; an expired one is left as it is; a submitted one is 422.
   */
  expire(inquiry: InquiryRecord): void {
    if (inquiry.redactedAt !== null) throw new HttpError(409, 'Conflict', 'Inquiry has been redacted');
    if (inquiry.status === 'expired') return;
    if (inquiry.status !== 'created' && inquiry.status !== 'pending') {
      throw new HttpError(422, 'Unprocessable entity', `Inquiry is already ${inquiry.status}`);
    }
    this.transition(inquiry, 'inquiry.expired', (inq, now) => {
      inq.status = 'expired';
      inq.expiredAt = now;
      inq.sessionToken = null;
    });
  }

  redact(inquiry: InquiryRecord): void {
    if (inquiry.redactedAt !== null) return;
    this.transition(inquiry, 'inquiry.redacted', (inq, now) => {
      inq.redactedAt = now;
      inq.referenceId = null;
      inq.fields = {};
      inq.note = null;
      inq.sessionToken = null;
      inq.verifications = [];
    });
  }

  private transition(
    inquiry: InquiryRecord,
    eventName: string,
    change: (inq: InquiryRecord, now: string) => void,
  ): void {
    this.store.update(inquiry, (inq) => {
      const now = this.store.nextTime();
      change(inq, now);
      inq.updatedAt = now;
    });
    this.emit(eventName, inquiry);
  }

  /** Builds the event exactly as Persona posts it, with the inquiry as it is now. */
  private emit(name: string, inquiry: InquiryRecord): void {
    const id = newId('evt');
    const body = JSON.stringify({
      data: {
        type: 'event',
        id,
        attributes: {
          name,
          'created-at': this.faults.config?.sameSecond
            ? this.store.nextTime().replace(/\.\d{3}Z$/, '.000Z')
            : this.store.nextTime(),
          'redacted-at': null,
          // As Persona does: the inquiry's related objects, its verifications among them, in the
          // API's schema (what `GET /inquiries/{id}?include=verifications` lists).
          payload: {
            data: inquiryResource(inquiry),
            included: (inquiry.verifications ?? []).map(verificationResource),
          },
        },
      },
    });
    if (this.webhookDrops.drop({ id, name, inquiryId: inquiry.id })) return;
    this.webhooks.emit({ id, name, inquiryId: inquiry.id, body });
  }
}
