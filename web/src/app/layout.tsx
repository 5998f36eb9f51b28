import { NavLink, Outlet } from 'react-router';
import { ThemeToggle } from '../components/theme-toggle.tsx';
import { site } from '../content/site.ts';
import { paths } from './paths.ts';

export function RootLayout() {
  return (
    <div className="page">
      <a className="skip-link" href="#main">
        {site.skipToContent}
      </a>
      <header className="site-header">
        <div className="container site-header__inner">
          <span className="site-header__name">{site.productName}</span>
          <nav aria-label={site.nav.label} className="site-nav">
            <NavLink to={paths.home.getHref()} end>
              {site.nav.home}
            </NavLink>
          </nav>
          <ThemeToggle />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="container">
          <p>
            {site.productName}. {site.footer.note}
          </p>
        </div>
      </footer>
    </div>
  );
}
