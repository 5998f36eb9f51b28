import { Link } from 'react-router';
import { Seo } from '#web/components/seo.tsx';
import { paths } from '#web/config/paths.ts';
import { tutorials } from '#web/content/pages/tutorials.ts';

export function Component() {
  return (
    <>
      <Seo
        title={tutorials.meta.title}
        description={tutorials.meta.description}
        path={paths.tutorials.path}
      />
      <div className="container prose page-body">
        <h1>{tutorials.title}</h1>
        <p className="lead">{tutorials.lead}</p>
        <h2>{tutorials.includesTitle}</h2>
        <ul className="checklist">
          {tutorials.includes.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <h2>{tutorials.howTitle}</h2>
        <p>{tutorials.how}</p>
        <Link className="button" to={paths.register.getHref()}>
          {tutorials.register}
        </Link>
      </div>
    </>
  );
}
