// @vitest-environment jsdom
// Several open tabs of the site, simulated: each tab has its own window and document (its own
// events and visibility) and all share one local storage. As in a browser, a write in one tab
// reaches the others as a `storage` event a task later, never the tab that wrote it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  endSessionRecord,
  type KeyValueStore,
  startSessionRecord,
} from '#web/features/session/lib/session-store.ts';
import { startSessionTab, stopSessionTabs } from '#web/features/session/lib/session-tab.ts';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const second = 1_000;
const minute = 60_000;

function browser() {
  const data = new Map<string, string>();
  const tabs: { name: string; closed: boolean; window: EventTarget }[] = [];

  function open(name: string, { visible = true, refresh = async () => {} } = {}) {
    const window = new EventTarget();
    let visibility: DocumentVisibilityState = visible ? 'visible' : 'hidden';
    const document = Object.defineProperty(new EventTarget(), 'visibilityState', {
      get: () => visibility,
    }) as EventTarget & { readonly visibilityState: DocumentVisibilityState };
    const tell = (key: string, oldValue: string | null, newValue: string | null) => {
      for (const other of tabs) {
        if (other.name === name || other.closed) continue;
        setTimeout(
          () => other.window.dispatchEvent(new StorageEvent('storage', { key, oldValue, newValue })),
          0,
        );
      }
    };
    const store: KeyValueStore = {
      get: (key) => data.get(key) ?? null,
      set(key, value) {
        const old = data.get(key) ?? null;
        data.set(key, value);
        if (old !== value) tell(key, old, value);
      },
      remove(key) {
        const old = data.get(key) ?? null;
        if (old === null) return;
        data.delete(key);
        tell(key, old, null);
      },
    };
    const onWarning = vi.fn();
    const onLogout = vi.fn();
    const refreshToken = vi.fn(refresh);
    const tab = {
      name,
      window,
      store,
      onWarning,
      onLogout,
      refreshToken,
      closed: false,
      session: startSessionTab(
        { onWarning, onLogout, refreshToken },
        { now: () => Date.now(), store, window, document, tabId: name },
      ),
      show() {
        visibility = 'visible';
        document.dispatchEvent(new Event('visibilitychange'));
      },
      hide() {
        visibility = 'hidden';
        document.dispatchEvent(new Event('visibilitychange'));
      },
      activity(type = 'mousemove') {
        window.dispatchEvent(new Event(type));
      },
      close() {
        this.hide();
        tab.session.stop();
        tab.closed = true;
      },
    };
    tabs.push(tab);
    return tab;
  }

  return {
    data,
    open,
    signIn(tabId = 'sign-in') {
      startSessionRecord(
        {
          get: (k) => data.get(k) ?? null,
          set: (k, v) => void data.set(k, v),
          remove: (k) => void data.delete(k),
        },
        Date.now(),
        tabId,
      );
    },
  };
}

async function at(ms: number) {
  await vi.advanceTimersByTimeAsync(T0 + ms - Date.now());
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('two open tabs', () => {
  it('activity in tab A keeps tab B alive, whether B is hidden or in a second visible window', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const hidden = site.open('B', { visible: false });
    const window2 = site.open('C');

    for (let t = minute; t <= 20 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    await at(24 * minute - 1);
    for (const tab of [a, hidden, window2]) {
      expect(tab.onLogout).not.toHaveBeenCalled();
      expect(tab.onWarning).not.toHaveBeenCalled();
    }
    await at(24 * minute);
    // The warning comes 4 minutes after the last activity, in one of the two visible windows.
    expect(a.onWarning.mock.calls.length + window2.onWarning.mock.calls.length).toBe(1);
    expect(hidden.onWarning).not.toHaveBeenCalled();

    await at(25 * minute - 1);
    expect(a.onLogout).not.toHaveBeenCalled();
    await at(25 * minute);
    expect(a.onLogout.mock.calls.length + window2.onLogout.mock.calls.length).toBeGreaterThan(0);
    await at(25 * minute + 1); // the other tabs hear of it a task later
    for (const tab of [a, hidden, window2]) {
      expect(tab.onLogout).toHaveBeenCalledOnce();
      expect(tab.onLogout).toHaveBeenCalledWith(
        'Logged out due to 5 minutes of inactivity',
        expect.anything(),
      );
    }
  });

  it('tab A holding activity (the verification widget) keeps an idle visible tab B alive', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B');
    await at(minute);
    const release = a.session.holdActivity();
    await at(20 * minute);
    for (const tab of [a, b]) {
      expect(tab.onLogout).not.toHaveBeenCalled();
      expect(tab.onWarning).not.toHaveBeenCalled();
    }
    release();
    await at(24 * minute - 1);
    expect(a.onWarning.mock.calls.length + b.onWarning.mock.calls.length).toBe(0);
    await at(25 * minute);
    expect(a.onLogout).toHaveBeenCalledOnce();
    expect(b.onLogout).toHaveBeenCalledOnce();
  });

  it('a logout in tab A reaches tab B with the same message', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B', { visible: false });
    // A is in front and idle; B is hidden, so only A judges inactivity.
    await at(5 * minute - 1);
    expect(b.onLogout).not.toHaveBeenCalled();
    await at(5 * minute);
    const message = 'Logged out due to 5 minutes of inactivity';
    expect(a.onLogout).toHaveBeenCalledWith(message, { reason: 'inactivity', source: 'this-tab' });
    await at(5 * minute + 1);
    expect(b.onLogout).toHaveBeenCalledOnce();
    expect(b.onLogout).toHaveBeenCalledWith(message, { reason: 'inactivity', source: 'other-tab' });
  });

  it('a refresh failure in tab A logs tab B out with "Session expired"', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A', { refresh: () => Promise.reject(new Error('invalid_grant')) });
    const b = site.open('B', { visible: false });
    for (let t = minute; t <= 5 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    await at(5 * minute + second);
    const expired = 'Session expired. Please log in again for security.';
    expect(a.onLogout).toHaveBeenCalledWith(expired, { reason: 'refresh-failed', source: 'this-tab' });
    expect(b.onLogout).toHaveBeenCalledWith(expired, { reason: 'refresh-failed', source: 'other-tab' });
    expect(b.refreshToken).not.toHaveBeenCalled();
  });

  it("the user's own Log Out in tab A logs tab B out, and A stays silent", async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B', { visible: false });
    await at(2 * minute);
    stopSessionTabs(a.store);
    endSessionRecord(a.store, 'signed-out', Date.now(), 'A');
    await at(2 * minute + 1);
    expect(a.onLogout).not.toHaveBeenCalled();
    expect(b.onLogout).toHaveBeenCalledWith('You logged out in another tab.', {
      reason: 'signed-out',
      source: 'other-tab',
    });
  });

  it('the 60-minute maximum counts from the shared sessionStartTime', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    for (let t = minute; t <= 30 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    a.hide();
    const b = site.open('B'); // opened 30 minutes in
    for (let t = 31 * minute; t < 60 * minute; t += minute) {
      await at(t);
      b.activity();
    }
    expect(b.onWarning).toHaveBeenCalledOnce();
    expect(b.onWarning).toHaveBeenCalledWith('Session expiring soon', 10000, 'maximum');
    await at(60 * minute - 1);
    expect(b.onLogout).not.toHaveBeenCalled();
    await at(60 * minute);
    const maximum = 'Maximum session duration (60 minutes) exceeded';
    expect(a.onLogout).toHaveBeenCalledWith(maximum, expect.objectContaining({ reason: 'maximum-duration' }));
    expect(b.onLogout).toHaveBeenCalledWith(maximum, expect.objectContaining({ reason: 'maximum-duration' }));
    // A was hidden all along: it never showed a warning nobody could see.
    expect(a.onWarning).not.toHaveBeenCalled();
  });

  // The two wordings of the 60 minutes (ADR 0074, amendment): "exceeded" above, where the rules end
  // a session that is open; "reached" where the user comes back to one already past them.
  it('says "reached" when the app opens again on a session whose 60 minutes already ran out', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    for (let t = minute; t <= 58 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    a.close(); // the user closes the app's last tab at 58 minutes
    await at(61 * minute);
    const b = site.open('B'); // and opens it again at 61

    expect(b.onLogout).toHaveBeenCalledOnce();
    expect(b.onLogout).toHaveBeenCalledWith('Maximum session duration (60 minutes) reached', {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
    expect(a.onLogout).not.toHaveBeenCalled();
  });

  it('says "reached" when a tab comes back to the front after its machine slept past the 60 minutes', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    for (let t = minute; t <= 57 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    a.hide();
    // Asleep: the clock moves on, no timer runs.
    vi.setSystemTime(T0 + 62 * minute);
    a.show();

    expect(a.onLogout).toHaveBeenCalledOnce();
    expect(a.onLogout).toHaveBeenCalledWith('Maximum session duration (60 minutes) reached', {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
  });

  it('says "exceeded", not "reached", when the 60 minutes end a session open in a visible tab', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    for (let t = minute; t < 60 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    await at(60 * minute);
    expect(a.onLogout).toHaveBeenCalledWith('Maximum session duration (60 minutes) exceeded', {
      reason: 'maximum-duration',
      source: 'this-tab',
    });
  });

  it('the hidden-tab rule fires only once no tab of the site has been visible for 5 minutes', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A', { visible: false });
    const b = site.open('B');
    for (let t = minute; t <= 12 * minute; t += minute) {
      await at(t);
      b.activity();
    }
    expect(a.onLogout).not.toHaveBeenCalled();
    b.hide(); // the user leaves the site at 12 minutes
    await at(17 * minute - 1);
    expect(a.onLogout).not.toHaveBeenCalled();
    expect(b.onLogout).not.toHaveBeenCalled();
    await at(17 * minute);
    const hidden = 'Logged out due to tab being inactive for 5 minutes';
    expect(a.onLogout).toHaveBeenCalledWith(hidden, expect.objectContaining({ reason: 'hidden-tab' }));
    expect(b.onLogout).toHaveBeenCalledWith(hidden, expect.objectContaining({ reason: 'hidden-tab' }));
  });

  it('a visible tab that vanished (crashed) stops vouching for the hidden ones after 5 minutes', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A', { visible: false });
    const b = site.open('B');
    await at(3 * minute + 10 * second);
    b.activity();
    b.session.stop(); // no visibilitychange, no pagehide: the last heartbeat is all A has
    await at(8 * minute + 10 * second);
    expect(a.onLogout).toHaveBeenCalledWith(
      'Logged out due to tab being inactive for 5 minutes',
      expect.objectContaining({ source: 'this-tab' }),
    );
  });

  it('only one tab refreshes the token per period; another takes over when it closes', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B', { visible: false });
    const c = site.open('C', { visible: false });
    for (let t = minute; t <= 20 * minute; t += minute) {
      await at(t);
      a.activity();
    }
    expect(a.refreshToken).toHaveBeenCalledTimes(4);
    expect(b.refreshToken).not.toHaveBeenCalled();
    expect(c.refreshToken).not.toHaveBeenCalled();

    a.close();
    b.show();
    for (let t = 21 * minute; t <= 40 * minute; t += minute) {
      await at(t);
      b.activity();
    }
    expect(b.refreshToken).toHaveBeenCalledTimes(4);
    expect(c.refreshToken).not.toHaveBeenCalled();
    expect(a.refreshToken).toHaveBeenCalledTimes(4);
  });

  it('a tab refreshes in place of the last active tab when that one stopped answering', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B', { visible: false });
    await at(1 * minute);
    a.activity();
    a.session.stop(); // frozen or crashed: it never refreshes again
    site.data.set('sessionLastVisible', String(T0 + 4 * minute)); // keep the hidden-tab rule out of it
    await at(5 * minute + 30 * second - 1);
    expect(b.refreshToken).not.toHaveBeenCalled();
    await at(5 * minute + 30 * second);
    expect(b.refreshToken).toHaveBeenCalledOnce();
  });

  it('shows a warning in one visible window, not in each', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B');
    await at(4 * minute + second);
    const shown = a.onWarning.mock.calls.length + b.onWarning.mock.calls.length;
    expect(shown).toBe(1);
    expect([...a.onWarning.mock.calls, ...b.onWarning.mock.calls][0]).toEqual([
      'You will be logged out in 1 minute',
      null,
      'inactivity',
    ]);
  });

  it('keeps writing to a minimum: two visible windows do not answer each other forever', async () => {
    const site = browser();
    site.signIn();
    const a = site.open('A');
    const b = site.open('B');
    const set = vi.spyOn(a.store, 'set');
    const setB = vi.spyOn(b.store, 'set');
    for (let t = 10 * second; t <= 2 * minute; t += 10 * second) {
      await at(t);
      a.activity();
    }
    // Activity once per 10 s and a heartbeat every 15-30 s per tab: a few dozen writes, not thousands.
    expect(set.mock.calls.length + setB.mock.calls.length).toBeLessThan(40);
  });
});
