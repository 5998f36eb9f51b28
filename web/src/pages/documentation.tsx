import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { documentation } from '#web/content/pages/documentation.ts';

export function Component() {
  return (
    <>
      <Seo
        title={documentation.meta.title}
        description={documentation.meta.description}
        path={paths.documentation.path}
      />
      <div className="container prose page-body">
        <h1>{documentation.title}</h1>
        <p className="lead">{documentation.lead}</p>
        <h2>{documentation.includesTitle}</h2>
        <ul className="checklist">
          {documentation.includes.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <h2>{documentation.howTitle}</h2>
        <p>{documentation.how}</p>
        <Link className="button" to={paths.register.getHref()}>
          {documentation.register}
        </Link>
      </div>
    </>
  );
}
