// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  endSession,
  holdSessionActivity,
  lastActiveRoute,
  recordSessionActivity,
  type SessionRulesOptions,
  startSession,
  useSessionRules,
} from '#web/features/session/index.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const second = 1_000;
const minute = 60_000;

const messages = {
  expiringSoon: 'Session expiring soon',
  maximum: 'Maximum session duration (60 minutes) exceeded',
  inactivityWarning: 'You will be logged out in 1 minute',
  inactivity: 'Logged out due to 5 minutes of inactivity',
  hidden: 'Logged out due to tab being inactive for 5 minutes',
  expired: 'Session expired. Please log in again for security.',
};

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** What another open tab of the site does: write local storage; the browser tells this tab. */
function otherTabWrites(key: string, value: string) {
  const oldValue = localStorage.getItem(key);
  localStorage.setItem(key, value);
  window.dispatchEvent(
    new StorageEvent('storage', { key, oldValue, newValue: value, storageArea: localStorage }),
  );
}

function mount(overrides: Partial<SessionRulesOptions> = {}) {
  const onWarning = vi.fn();
  const onLogout = vi.fn();
  const refreshToken = vi.fn(async () => {});
  const props: SessionRulesOptions = {
    active: true,
    pathname: '/dashboard',
    onWarning,
    onLogout,
    refreshToken,
    ...overrides,
  };
  const view = renderHook((p: SessionRulesOptions) => useSessionRules(p), { initialProps: props });
  return { onWarning, onLogout, refreshToken, view, props };
}

/** Moves the clock to `T0 + ms`, running every timer and settled promise on the way. */
async function at(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(T0 + ms - Date.now()));
}

/** Moves to `T0 + ms` with the user moving the mouse at every whole minute on the way. */
async function activeUntil(ms: number) {
  let next = Math.floor((Date.now() - T0) / minute + 1) * minute;
  while (next < ms) {
    await at(next);
    window.dispatchEvent(new MouseEvent('mousemove'));
    next += minute;
  }
  await at(ms);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  localStorage.clear();
  setVisibility('visible');
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('inactivity', () => {
  it('warns at 4 minutes until answered, and logs out at 5 minutes with its message', async () => {
    startSession();
    const { onWarning, onLogout } = mount();

    await at(4 * minute - 1);
    expect(onWarning).not.toHaveBeenCalled();
    await at(4 * minute);
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning).toHaveBeenCalledWith(messages.inactivityWarning, null, 'inactivity');

    await at(5 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(5 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
    expect(onWarning).toHaveBeenCalledOnce();
  });

  it.each([
    ['a mouse move', () => window.dispatchEvent(new MouseEvent('mousemove'))],
    ['a mouse down', () => document.body.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))],
    ['a key press', () => document.body.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }))],
    ['a touch move', () => document.body.dispatchEvent(new Event('touchmove', { bubbles: true }))],
    // Scrolling an inner element does not bubble: it must still count.
    ['a scroll', () => document.body.dispatchEvent(new Event('scroll'))],
    ['a click', () => document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }))],
  ])('counts %s as activity: the 5 minutes start again from it', async (_, act_) => {
    startSession();
    const { onWarning, onLogout } = mount();

    await at(3 * minute);
    act_();
    await at(7 * minute - 1);
    expect(onWarning).not.toHaveBeenCalled();
    await at(7 * minute);
    expect(onWarning).toHaveBeenCalledWith(messages.inactivityWarning, null, 'inactivity');
    await at(8 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(8 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('listens passively and writes activity at most once a second', async () => {
    const listen = vi.spyOn(window, 'addEventListener');
    startSession();
    mount();
    for (const type of ['mousemove', 'mousedown', 'keydown', 'touchmove', 'scroll', 'click']) {
      expect(listen).toHaveBeenCalledWith(
        type,
        expect.any(Function),
        expect.objectContaining({ passive: true }),
      );
    }

    await at(10 * second);
    const write = vi.spyOn(Storage.prototype, 'setItem');
    for (let i = 0; i < 50; i++) window.dispatchEvent(new MouseEvent('mousemove'));
    await at(10 * second + 999);
    for (let i = 0; i < 50; i++) window.dispatchEvent(new MouseEvent('mousemove'));
    expect(write.mock.calls.filter(([key]) => key === 'sessionLastActivity')).toHaveLength(1);
    await at(11 * second);
    window.dispatchEvent(new MouseEvent('mousemove'));
    expect(write.mock.calls.filter(([key]) => key === 'sessionLastActivity')).toHaveLength(2);
    expect(localStorage.getItem('sessionLastActivity')).toBe(String(T0 + 11 * second));
    write.mockRestore();
  });

  it('does not let activity revive a session whose 5 minutes passed while the machine slept', async () => {
    let clock = T0;
    startSession({ now: () => clock });
    const { onLogout } = mount({ now: () => clock });
    clock += 6 * minute; // no timer ran: the laptop lid was closed
    window.dispatchEvent(new MouseEvent('mousemove'));
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });
});

describe('"Stay signed in"', () => {
  it('counts as activity, without any event: the 5 minutes start again from the press', async () => {
    startSession();
    const { onWarning, onLogout } = mount();
    await at(4 * minute);
    expect(onWarning).toHaveBeenCalledOnce();
    await at(4 * minute + 30 * second);
    recordSessionActivity();
    expect(localStorage.getItem('sessionLastActivity')).toBe(String(T0 + 4 * minute + 30 * second));

    await at(8 * minute + 30 * second - 1);
    expect(onLogout).not.toHaveBeenCalled();
    expect(onWarning).toHaveBeenCalledOnce();
    await at(8 * minute + 30 * second);
    expect(onWarning).toHaveBeenCalledTimes(2);
    await at(9 * minute + 30 * second);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('does not revive a session whose 5 minutes passed while the machine slept', async () => {
    let clock = T0;
    startSession({ now: () => clock });
    const { onLogout } = mount({ now: () => clock });
    clock += 6 * minute;
    recordSessionActivity();
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });
});

describe('holding activity (the identity verification widget is open)', () => {
  it('pauses the inactivity rule and writes activity every 30 s; the release counts as activity', async () => {
    startSession();
    const { onWarning, onLogout } = mount();
    await at(1 * minute);
    const release = holdSessionActivity();
    const write = vi.spyOn(Storage.prototype, 'setItem');

    await at(21 * minute);
    expect(onWarning).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
    const activityWrites = write.mock.calls.filter(([key]) => key === 'sessionLastActivity');
    expect(activityWrites.length).toBeGreaterThanOrEqual(39);
    expect(activityWrites.length).toBeLessThanOrEqual(41);
    expect(Number(localStorage.getItem('sessionLastActivity'))).toBeGreaterThanOrEqual(
      T0 + 21 * minute - 30 * second,
    );
    write.mockRestore();

    release();
    expect(localStorage.getItem('sessionLastActivity')).toBe(String(T0 + 21 * minute));
    await at(21 * minute + 10 * second);
    release(); // idempotent
    expect(localStorage.getItem('sessionLastActivity')).toBe(String(T0 + 21 * minute));

    await at(25 * minute - 1);
    expect(onWarning).not.toHaveBeenCalled();
    await at(25 * minute);
    expect(onWarning).toHaveBeenCalledWith(messages.inactivityWarning, null, 'inactivity');
    await at(26 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(26 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('applies to rules that start after the hold was taken', async () => {
    startSession();
    const release = holdSessionActivity();
    const { onWarning, onLogout } = mount();
    await at(20 * minute);
    expect(onWarning).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
    release();
    await at(25 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(25 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('counts holds: inactivity counts again only once every hold is released', async () => {
    startSession();
    const { onLogout } = mount();
    const first = holdSessionActivity();
    const second_ = holdSessionActivity();
    await at(10 * minute);
    first();
    first();
    await at(20 * minute);
    expect(onLogout).not.toHaveBeenCalled();
    second_();
    await at(25 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('keeps the 60-minute maximum and its warning', async () => {
    startSession();
    const { onWarning, onLogout } = mount();
    const release = holdSessionActivity();
    await at(55 * minute);
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning).toHaveBeenCalledWith(messages.expiringSoon, 10000, 'maximum');
    await at(60 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(60 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.maximum, {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
    release(); // after the end: nothing more happens
    await at(70 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('keeps the hidden-tab rule', async () => {
    startSession();
    const { onLogout } = mount();
    const release = holdSessionActivity();
    await at(1 * minute);
    setVisibility('hidden');
    await at(6 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(6 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.hidden, { reason: 'hidden-tab', source: 'this-tab' });
    release();
  });

  it('does not revive a session whose 5 minutes passed while the machine slept', async () => {
    let clock = T0;
    startSession({ now: () => clock });
    const { onLogout } = mount({ now: () => clock });
    clock += 6 * minute;
    const release = holdSessionActivity();
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
    release();
    expect(onLogout).toHaveBeenCalledOnce();
  });
});

describe('maximum duration', () => {
  it('warns 5 minutes before the end for 10 s, and logs out at 60 minutes however active the user is', async () => {
    startSession();
    const { onWarning, onLogout } = mount();

    await activeUntil(55 * minute - 1);
    expect(onWarning).not.toHaveBeenCalled();
    await at(55 * minute);
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning).toHaveBeenCalledWith(messages.expiringSoon, 10000, 'maximum');

    await activeUntil(60 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(60 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.maximum, {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
    expect(onWarning).toHaveBeenCalledOnce();
  });

  it('counts from the stored sessionStartTime, not from when this page opened', async () => {
    startSession();
    expect(localStorage.getItem('sessionStartTime')).toBe(String(T0));
    await at(30 * minute);
    // A reload (or a second tab) 30 minutes in: the page is new, the session is not.
    otherTabWrites('sessionLastActivity', String(T0 + 30 * minute));
    otherTabWrites('sessionLastVisible', String(T0 + 30 * minute));
    const { onLogout } = mount();
    await activeUntil(60 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(60 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.maximum, {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
  });
});

describe('hidden tab', () => {
  it('logs out 5 minutes after the tab was hidden, without the inactivity warning', async () => {
    startSession();
    const { onWarning, onLogout } = mount();
    await at(1 * minute);
    setVisibility('hidden');

    await at(6 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    expect(onWarning).not.toHaveBeenCalled();
    await at(6 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.hidden, { reason: 'hidden-tab', source: 'this-tab' });
  });

  it('counts coming back within 5 minutes as activity', async () => {
    startSession();
    const { onLogout } = mount();
    await at(1 * minute);
    setVisibility('hidden');
    await at(6 * minute - 1);
    setVisibility('visible');

    await at(11 * minute - 2);
    expect(onLogout).not.toHaveBeenCalled();
    await at(11 * minute - 1);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('logs out on coming back when the tab was away 5 minutes and its timer was held back', async () => {
    let clock = T0;
    startSession({ now: () => clock });
    const { onLogout } = mount({ now: () => clock });
    setVisibility('hidden');
    clock += 5 * minute; // background tabs' timers are throttled; nothing ran
    setVisibility('visible');
    expect(onLogout).toHaveBeenCalledWith(messages.hidden, { reason: 'hidden-tab', source: 'this-tab' });
  });

  it('is not logged out while the user works in another tab of the site', async () => {
    startSession();
    setVisibility('hidden');
    const { onLogout } = mount();
    // The visible tab says so every 30 s (and writes activity).
    for (let t = 30 * second; t <= 20 * minute; t += 30 * second) {
      await at(t);
      otherTabWrites('sessionLastVisible', String(T0 + t));
      otherTabWrites('sessionLastActivity', String(T0 + t));
    }
    expect(onLogout).not.toHaveBeenCalled();
    await at(25 * minute - 1);
    expect(onLogout).not.toHaveBeenCalled();
    await at(25 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.hidden, { reason: 'hidden-tab', source: 'this-tab' });
  });
});

describe('token refresh', () => {
  it('refreshes the token every 5 minutes', async () => {
    startSession();
    const { refreshToken, onLogout } = mount();
    await activeUntil(5 * minute - 1);
    expect(refreshToken).not.toHaveBeenCalled();
    await at(5 * minute);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    await activeUntil(10 * minute - 1);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    await at(10 * minute);
    expect(refreshToken).toHaveBeenCalledTimes(2);
    await activeUntil(30 * minute);
    expect(refreshToken).toHaveBeenCalledTimes(6);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('logs out with "Session expired" when a refresh fails', async () => {
    startSession();
    const { onLogout } = mount({
      refreshToken: vi.fn(async () => Promise.reject(new Error('login_required'))),
    });
    await activeUntil(5 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.expired, { reason: 'refresh-failed', source: 'this-tab' });
    expect(localStorage.getItem('sessionStartTime')).toBeNull();
  });
});

describe('other tabs', () => {
  it('keeps this tab alive while the user is active in another tab', async () => {
    startSession();
    const { onWarning, onLogout } = mount();
    await at(3 * minute);
    otherTabWrites('sessionLastActivity', String(T0 + 3 * minute));
    await at(7 * minute - 1);
    expect(onWarning).not.toHaveBeenCalled();
    expect(onLogout).not.toHaveBeenCalled();
    await at(8 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('does not repeat a warning another tab already showed', async () => {
    startSession();
    const { onWarning } = mount();
    await at(4 * minute - 1);
    otherTabWrites('sessionInactivityWarnedFor', String(T0 + 5 * minute));
    await at(4 * minute + 10 * second);
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('logs out with the same message when another tab logs out', async () => {
    startSession();
    const { onLogout, refreshToken } = mount();
    await at(2 * minute);
    otherTabWrites('sessionEnded', JSON.stringify({ reason: 'maximum-duration', at: T0, tab: 'other' }));
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.maximum, {
      reason: 'maximum-duration',
      source: 'other-tab',
    });
    // Stopped: no more timers, no refresh.
    await at(20 * minute);
    expect(onLogout).toHaveBeenCalledOnce();
    expect(refreshToken).not.toHaveBeenCalled();
  });

  it('tells the other tabs why it logged out', async () => {
    startSession();
    mount();
    await at(5 * minute);
    expect(JSON.parse(localStorage.getItem('sessionEnded') ?? '{}')).toMatchObject({ reason: 'inactivity' });
  });
});

describe('the stored session', () => {
  it('keeps sessionStartTime, lastActiveRoute and lastActiveTab in local storage', async () => {
    startSession();
    const { view, props } = mount();
    expect(localStorage.getItem('sessionStartTime')).toBe(String(T0));
    expect(localStorage.getItem('lastActiveRoute')).toBe('/dashboard');
    expect(localStorage.getItem('lastActiveTab')).toMatch(/\S{8,}/);
    view.rerender({ ...props, pathname: '/user-account' });
    expect(localStorage.getItem('lastActiveRoute')).toBe('/user-account');
    expect(lastActiveRoute()).toBe('/user-account');
  });

  it('startSession keeps a live session and replaces one that is over', async () => {
    startSession();
    await at(2 * minute);
    startSession();
    expect(localStorage.getItem('sessionStartTime')).toBe(String(T0));

    // Left behind by a browser closed without logging out.
    await at(3 * 60 * minute);
    startSession();
    expect(localStorage.getItem('sessionStartTime')).toBe(String(T0 + 3 * 60 * minute));
  });

  it('logs out at once when the stored session ended while the browser was closed', async () => {
    startSession();
    await at(90 * minute);
    const { onLogout } = mount();
    expect(onLogout).toHaveBeenCalledOnce();
    expect(onLogout).toHaveBeenCalledWith(messages.hidden, { reason: 'hidden-tab', source: 'this-tab' });
  });

  it('starts counting when signed in without a stored start (never a session that never ends)', async () => {
    const { onLogout } = mount();
    expect(localStorage.getItem('sessionStartTime')).toBe(String(T0));
    await activeUntil(60 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.maximum, {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
  });

  it('endSession stops this tab silently and keeps the route to come back to', async () => {
    startSession();
    const { onLogout, onWarning, refreshToken } = mount();
    await at(1 * minute);
    endSession();
    expect(localStorage.getItem('sessionStartTime')).toBeNull();
    expect(JSON.parse(localStorage.getItem('sessionEnded') ?? '{}')).toMatchObject({ reason: 'signed-out' });
    expect(localStorage.getItem('lastActiveRoute')).toBe('/dashboard');
    await at(2 * 60 * minute);
    expect(onLogout).not.toHaveBeenCalled();
    expect(onWarning).not.toHaveBeenCalled();
    expect(refreshToken).not.toHaveBeenCalled();
  });

  it('still ends the session when local storage is disabled (the rules then hold in this tab)', async () => {
    const blocked = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(blocked);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(blocked);
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(blocked);
    try {
      startSession();
      const { onWarning, onLogout } = mount();
      await at(4 * minute);
      expect(onWarning).toHaveBeenCalledWith(messages.inactivityWarning, null, 'inactivity');
      await at(5 * minute);
      expect(onLogout).toHaveBeenCalledWith(messages.inactivity, {
        reason: 'inactivity',
        source: 'this-tab',
      });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("keeps the rules running when the shell's warning callback throws", async () => {
    startSession();
    const { onLogout } = mount({
      onWarning: () => {
        throw new Error('no toast region');
      },
    });
    await expect(at(4 * minute)).rejects.toThrow('no toast region');
    await at(5 * minute);
    expect(onLogout).toHaveBeenCalledWith(messages.inactivity, { reason: 'inactivity', source: 'this-tab' });
  });

  it('runs nothing while signed out', async () => {
    const { onLogout, onWarning, refreshToken } = mount({ active: false });
    await at(2 * 60 * minute);
    expect(onLogout).not.toHaveBeenCalled();
    expect(onWarning).not.toHaveBeenCalled();
    expect(refreshToken).not.toHaveBeenCalled();
    expect(localStorage.getItem('sessionStartTime')).toBeNull();
  });

  it('stops when the shell signs out, and uses the latest callbacks without restarting', async () => {
    startSession();
    const { view, props, onWarning } = mount();
    const later = vi.fn();
    view.rerender({ ...props, onWarning: later });
    await at(4 * minute);
    expect(onWarning).not.toHaveBeenCalled();
    expect(later).toHaveBeenCalledWith(messages.inactivityWarning, null, 'inactivity');
    view.rerender({ ...props, onWarning: later, active: false });
    await at(20 * minute);
    expect(props.onLogout).not.toHaveBeenCalled();
  });
});
