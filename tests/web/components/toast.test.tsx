// @vitest-environment jsdom
// Events through fireEvent and element.focus(): user-event's async wrapper waits on a real
// setTimeout, which fake timers never run.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ToastApi, ToastProvider, useToast } from '#web/components/toast.tsx';

let toast: ToastApi;
function Grab() {
  toast = useToast();
  return null;
}

function setup() {
  render(
    <ToastProvider>
      <button type="button">Elsewhere</button>
      <Grab />
    </ToastProvider>,
  );
}

const hover = (text: string) => fireEvent.mouseEnter(screen.getByText(text));
const unhover = (text: string) => fireEvent.mouseLeave(screen.getByText(text));
const focus = (element: HTMLElement) => act(() => element.focus());

const shown = (text: string) => screen.queryByText(text) !== null;
const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

describe('toasts', () => {
  it('last 5000 ms by default', () => {
    setup();
    act(() => toast.success('Saved'));
    wait(4999);
    expect(shown('Saved')).toBe(true);
    wait(1);
    expect(shown('Saved')).toBe(false);
  });

  it('last as long as asked', () => {
    setup();
    act(() => toast.info('Session expiring soon', { durationMs: 10000 }));
    wait(9999);
    expect(shown('Session expiring soon')).toBe(true);
    wait(1);
    expect(shown('Session expiring soon')).toBe(false);
  });

  it('pause while hovered, then resume with the time that was left', () => {
    setup();
    act(() => toast.info('Saved'));
    wait(3000);
    hover('Saved');
    wait(60_000);
    expect(shown('Saved')).toBe(true);
    unhover('Saved');
    wait(1999);
    expect(shown('Saved')).toBe(true);
    wait(1);
    expect(shown('Saved')).toBe(false);
  });

  it('pause while focus is inside (on the close button), then resume', () => {
    setup();
    act(() => toast.error('Failed to register. Please try again.'));
    wait(1000);
    focus(screen.getByRole('button', { name: 'Dismiss notification' }));
    wait(60_000);
    expect(shown('Failed to register. Please try again.')).toBe(true);
    focus(screen.getByRole('button', { name: 'Elsewhere' }));
    wait(3999);
    expect(shown('Failed to register. Please try again.')).toBe(true);
    wait(1);
    expect(shown('Failed to register. Please try again.')).toBe(false);
  });

  it('pause while the tab is hidden, then resume when it is back', () => {
    setup();
    act(() => toast.info('You will be logged out in 1 minute', { durationMs: 5000 }));
    wait(2000);
    setVisibility('hidden');
    wait(10 * 60_000);
    expect(shown('You will be logged out in 1 minute')).toBe(true);
    setVisibility('visible');
    wait(2999);
    expect(shown('You will be logged out in 1 minute')).toBe(true);
    wait(1);
    expect(shown('You will be logged out in 1 minute')).toBe(false);
  });

  it('start their time only once the tab is visible, when shown in a hidden tab', () => {
    setVisibility('hidden');
    setup();
    act(() => toast.success('Saved'));
    wait(60_000);
    setVisibility('visible');
    wait(4999);
    expect(shown('Saved')).toBe(true);
    wait(1);
    expect(shown('Saved')).toBe(false);
  });

  it('pause for each cause until none is left', () => {
    setup();
    act(() => toast.info('Saved'));
    wait(1000);
    hover('Saved');
    setVisibility('hidden');
    unhover('Saved');
    wait(60_000);
    expect(shown('Saved')).toBe(true);
    setVisibility('visible');
    wait(3999);
    expect(shown('Saved')).toBe(true);
    wait(1);
    expect(shown('Saved')).toBe(false);
  });

  it('each keep their own time', () => {
    setup();
    act(() => toast.info('First'));
    wait(2000);
    act(() => toast.info('Second'));
    hover('First');
    wait(5000);
    expect(shown('First')).toBe(true);
    expect(shown('Second')).toBe(false);
    unhover('First');
    wait(3000);
    expect(shown('First')).toBe(false);
  });

  it('close at once with their close button', () => {
    setup();
    act(() => toast.success('Saved'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(shown('Saved')).toBe(false);
  });

  it('stay until dismissed with `durationMs: null`, and say their id for `dismiss`', () => {
    setup();
    let id = 0;
    act(() => {
      id = toast.info('You will be logged out in 1 minute', { durationMs: null });
    });
    wait(60 * 60_000);
    expect(shown('You will be logged out in 1 minute')).toBe(true);
    act(() => toast.dismiss(id));
    expect(shown('You will be logged out in 1 minute')).toBe(false);
  });

  it('offer an action: pressing it runs it once and closes the toast', () => {
    setup();
    const onAction = vi.fn();
    act(() => {
      toast.info('You will be logged out in 1 minute', {
        durationMs: null,
        action: { label: 'Stay signed in', onAction },
      });
    });
    wait(30_000);
    // The pointer reaching the button does not take it away.
    fireEvent.mouseMove(screen.getByRole('button', { name: 'Stay signed in' }));
    hover('You will be logged out in 1 minute');
    expect(screen.getByRole('status', { name: 'Notifications' }).textContent).toContain('Stay signed in');
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(onAction).toHaveBeenCalledOnce();
    expect(shown('You will be logged out in 1 minute')).toBe(false);
  });

  it('with an action, close without running it from their close button', () => {
    setup();
    const onAction = vi.fn();
    act(() => {
      toast.info('Session expiring soon', { action: { label: 'Stay signed in', onAction } });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(shown('Session expiring soon')).toBe(false);
    expect(onAction).not.toHaveBeenCalled();
  });
});
