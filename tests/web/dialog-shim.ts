// jsdom has no HTMLDialogElement.showModal() or close(). This stand-in follows the observable steps
// of the HTML standard that the screens rely on: showModal() opens (and throws when already open),
// close() closes and fires `close`, Escape fires a cancelable `cancel` at the topmost modal dialog
// and closes it unless cancelled. The real behaviour is checked in Chromium
// (tests/e2e/dashboards.stack.test.ts).
export function installDialogShim(): void {
  const proto = HTMLDialogElement.prototype;
  if (typeof proto.showModal === 'function') return;
  proto.showModal = function showModal(this: HTMLDialogElement) {
    if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError');
    this.setAttribute('open', '');
    this.dataset.modal = 'true';
  };
  proto.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.close = function close(this: HTMLDialogElement, returnValue?: string) {
    if (!this.open) return;
    if (returnValue !== undefined) this.returnValue = returnValue;
    this.removeAttribute('open');
    delete this.dataset.modal;
    this.dispatchEvent(new Event('close'));
  };
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const modals = document.querySelectorAll<HTMLDialogElement>('dialog[open][data-modal]');
    const top = modals[modals.length - 1];
    if (top?.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close();
  });
}

/** What a browser does on Escape at this dialog: a cancelable `cancel`, then closing unless it was prevented. */
export function pressEscape(dialog: HTMLElement): void {
  const cancel = new Event('cancel', { cancelable: true });
  dialog.dispatchEvent(cancel);
  if (!cancel.defaultPrevented) (dialog as HTMLDialogElement).close();
}
