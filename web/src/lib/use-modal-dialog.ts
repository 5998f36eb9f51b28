import { type RefObject, useEffect, useRef } from 'react';

/**
 * A native modal `<dialog>` driven by `open` (the top layer, an inert page behind it, Escape to
 * close, at no bundle cost): opened with `showModal()` when `open` turns true, with the focus on
 * `focus` (the safe choice, or the one control that does something), and closed when it turns false.
 */
export function useModalDialog(open: boolean, focus: RefObject<HTMLElement | null>) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      focus.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open, focus]);
  return dialog;
}
