import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { adminCopy } from '#web/content/admin.ts';
import { type QueueQuery, queueHref } from '#web/features/admin/lib/queue-query.ts';

// The queue's search (organization or email) and order (ADR 0082). Both change the URL; the
// list route does the work, so a search covers every verification of the filter, not one page.

const copy = adminCopy;

export function QueueSearch({ query }: { query: QueueQuery }) {
  const navigate = useNavigate();
  const inputId = useId();
  const hintId = useId();
  return (
    <search className="queue-search">
      <form
        className="queue-search__form"
        // A new search starts on the first page, with the text as the field holds it.
        key={query.q ?? ''}
        onSubmit={(event) => {
          event.preventDefault();
          const text = String(new FormData(event.currentTarget).get('q') ?? '').trim();
          const { q: _previous, cursor: _cursor, ...rest } = query;
          navigate(queueHref(text.length >= 2 ? { ...rest, q: text.slice(0, 100) } : rest));
        }}
      >
        <div className="field queue-search__field">
          <label htmlFor={inputId}>{copy.search.label}</label>
          <input
            id={inputId}
            name="q"
            type="search"
            defaultValue={query.q ?? ''}
            maxLength={100}
            autoComplete="off"
            aria-describedby={hintId}
          />
          <p id={hintId} className="field__hint">
            {copy.search.hint}
          </p>
        </div>
        <div className="queue-search__actions">
          <button type="submit" className="button">
            {copy.search.submit}
          </button>
          {query.q && (
            <Link
              className="button button--secondary"
              to={queueHref({ status: query.status, sort: query.sort })}
            >
              {copy.search.clear}
            </Link>
          )}
        </div>
      </form>
    </search>
  );
}

export function QueueSort({ query }: { query: QueueQuery }) {
  const navigate = useNavigate();
  const selectId = useId();
  return (
    <div className="field queue-sort">
      <label htmlFor={selectId}>{copy.sort.label}</label>
      <select
        id={selectId}
        value={query.sort ?? 'newest'}
        onChange={(event) => {
          const { cursor: _cursor, sort: _sort, ...rest } = query;
          navigate(queueHref(event.target.value === 'oldest' ? { ...rest, sort: 'oldest' } : rest));
        }}
      >
        <option value="newest">{copy.sort.newest}</option>
        <option value="oldest">{copy.sort.oldest}</option>
      </select>
    </div>
  );
}

/** First page and next page; back in the browser returns to the page before. */
export function QueuePages({ query, nextCursor }: { query: QueueQuery; nextCursor: string | null }) {
  if (!query.cursor && !nextCursor) return null;
  const { cursor: _cursor, ...first } = query;
  return (
    <nav aria-label={copy.pages.label} className="queue-pages">
      {query.cursor && (
        <Link className="button button--secondary" to={queueHref(first)}>
          {copy.pages.first}
        </Link>
      )}
      {nextCursor && (
        <Link className="button" to={queueHref({ ...query, cursor: nextCursor })}>
          {copy.pages.next}
        </Link>
      )}
    </nav>
  );
}
