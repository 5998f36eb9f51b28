import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { eula } from '#web/content/pages/legal/eula.ts';
import { formatCalendarDate } from '#web/lib/dates.ts';
import { PolicyViewer } from './components/policy-viewer.tsx';

export function Component() {
  return (
    <>
      <Seo title={eula.meta.title} description={eula.meta.description} path={paths.eula.path} />
      <div className="container page-body">
        <h1>{eula.title}</h1>
        <p className="lead">
          {eula.lastUpdatedLabel}:{' '}
          <time dateTime={eula.lastUpdated}>{formatCalendarDate(eula.lastUpdated)}</time>. {eula.viewer.lead}
        </p>
        <PolicyViewer document={eula} labels={eula.viewer} />
      </div>
    </>
  );
}
