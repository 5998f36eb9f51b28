import { type ReactNode, useId, useState } from 'react';

// A disclosure that looks like the control it is (ADR 0082): a button with a chevron and a frame,
// `aria-expanded` on it, the panel after it. The panel's content renders only while open, so a
// disclosure that loads on opening (the audit trail, Persona's checks) reads nothing before.

export function Disclosure({
  label,
  className,
  onOpen,
  children,
}: {
  label: string;
  className?: string;
  /** Called at each opening (e.g. to load what the panel shows). */
  onOpen?: () => void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className={`review-disclosure${className ? ` ${className}` : ''}`}>
      <button
        type="button"
        className="review-disclosure__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen(!open);
          if (!open) onOpen?.();
        }}
      >
        <svg className="review-disclosure__icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <path d="M5 3l5 5-5 5" />
        </svg>
        {label}
      </button>
      <div id={panelId} className="review-disclosure__panel" hidden={!open}>
        {open && children}
      </div>
    </div>
  );
}
