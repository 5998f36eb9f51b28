import { useEffect } from 'react';
import { kycChannelPath } from '#contracts/kyc-channel.ts';
import { loadConfig } from '#web/lib/config.ts';

// How the status screen learns of a decision while it is pending, in one place (ADR 0060): the
// push channel carries it; while the channel is down (connecting, refused, lost, or no realtime API
// configured) the screen asks `GET /api/me` (through the shell's refreshMe, which reads DynamoDB
// and the token only) after 1, 2, 5, then every 10 s; never while the tab is hidden, at once when
// it becomes visible. Each (re)subscription asks once too: a decision may have landed while the
// channel was down. A push only triggers refreshMe, so the shell's `me` and the token's claims
// move together and a stale or repeated push changes nothing.

export const pollBackoffMs = [1000, 2000, 5000, 10_000] as const;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Opens the push channel; returns its close. `onState(true)` once subscribed, `false` when lost. */
export type ConnectChannel = (handlers: { onPush(): void; onState(up: boolean): void }) => () => void;

export interface DecisionWatch {
  /** The tab's visibility changed. */
  visibilityChanged(): void;
  stop(): void;
}

export function watchDecision(deps: {
  refresh(): Promise<unknown>;
  /** Resolves to the channel's opener, or undefined when there is none (polling only). */
  channel: Promise<ConnectChannel | undefined>;
  hidden(): boolean;
  timers: Timers;
}): DecisionWatch {
  const { timers } = deps;
  let stopped = false;
  let up = false;
  let checks = 0;
  let inFlight = false;
  let again = false;
  let timer: unknown;
  let closeChannel: (() => void) | undefined;

  function schedule() {
    timers.clearTimeout(timer);
    if (stopped || up || deps.hidden()) return;
    timer = timers.setTimeout(poll, pollBackoffMs[Math.min(checks, pollBackoffMs.length - 1)] ?? 10_000);
  }

  /** One `GET /api/me` at a time; a request asked for meanwhile runs right after. */
  async function ask() {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = true;
    try {
      await deps.refresh();
    } catch {
      // Asked again at the next tick or push (a 401 ends the session in the shell).
    } finally {
      inFlight = false;
    }
    if (again) {
      again = false;
      return ask();
    }
    schedule();
  }

  function poll() {
    if (stopped || up || deps.hidden()) return;
    checks += 1;
    ask();
  }

  schedule();
  deps.channel
    .then((connect) => {
      if (stopped || !connect) return;
      closeChannel = connect({
        onPush: () => ask(),
        onState: (isUp) => {
          up = isUp;
          if (isUp) {
            timers.clearTimeout(timer);
            checks = 0;
            ask();
          } else schedule();
        },
      });
    })
    .catch(() => undefined);

  return {
    visibilityChanged() {
      timers.clearTimeout(timer);
      if (!deps.hidden() && !up) poll();
    },
    stop() {
      stopped = true;
      timers.clearTimeout(timer);
      closeChannel?.();
    },
  };
}

/** The channel for this user from `/config.json`'s realtime block, loaded lazily; none without one. */
async function decisionChannel(
  userId: string,
  token: () => Promise<string>,
): Promise<ConnectChannel | undefined> {
  const channel = kycChannelPath(userId);
  const realtime = (await loadConfig()).realtime;
  if (!realtime || !channel) return undefined;
  const { openDecisionChannel } = await import('./decision-channel.ts');
  return ({ onPush, onState }) =>
    openDecisionChannel({ ...realtime, channel, token, onPush: () => onPush(), onState });
}

const browserTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Watches for the decision while `pending`: push first, polling while the push channel is down. */
export function useDecisionWatch(options: {
  pending: boolean;
  userId: string;
  refresh(): Promise<unknown>;
  token(): Promise<string>;
}) {
  const { pending, userId, refresh, token } = options;
  useEffect(() => {
    if (!pending) return;
    const hidden = () => document.visibilityState === 'hidden';
    const watch = watchDecision({
      refresh,
      channel: decisionChannel(userId, token).catch(() => undefined),
      hidden,
      timers: browserTimers,
    });
    const onVisibility = () => watch.visibilityChanged();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      watch.stop();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [pending, userId, refresh, token]);
}
