import { useId, useState } from 'react';
import { useToast } from '#web/components/toast.tsx';
import { accountCopy } from '#web/content/account.ts';
import { exportMyData } from '#web/features/account/api/export-my-data.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useSession } from '#web/lib/session.ts';

const copy = accountCopy.dataExport;

/** Saves `text` as a file named `name`: the SPA fetched it with the token, so no link can. */
function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// "Download my data" (GDPR Art. 15 and 20; ADR 0076): the API's JSON document, saved as a file.
export function DataExport() {
  const { api } = useSession();
  const toast = useToast();
  const headingId = useId();
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    try {
      const document = await exportMyData(api);
      saveFile(`my-data-${document.generatedAt.slice(0, 10)}.json`, `${JSON.stringify(document, null, 2)}\n`);
      toast.success(copy.saved, { title: copy.savedTitle });
    } catch (error) {
      // 429 is the route's `rateLimited` (by status: see pending-deletion-request.tsx).
      const limited = error instanceof ApiError && error.status === 429;
      toast.error(limited ? copy.limited : copy.failed, { title: copy.failedTitle });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="account-section">
      <h2 id={headingId}>{copy.heading}</h2>
      <p className="account-section__intro">{copy.intro}</p>
      <div className="app-actions">
        <button type="button" className="button button--secondary" disabled={busy} onClick={download}>
          {busy ? copy.preparing : copy.download}
        </button>
      </div>
    </section>
  );
}
