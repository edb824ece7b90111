import { Link } from 'react-router';

export function SiteFooter() {
  return (
    <footer data-testid="site-footer" className="border-t border-line px-4 py-8 text-sm text-muted">
      <div className="mx-auto max-w-6xl">
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <Link to="/privacypolicy">privacypolicy</Link>
          <Link to="/termsandconditions">termsandconditions</Link>
          <Link to="/faqs">faqs</Link>
        </nav>
        <p className="mt-4">© 2024 Webcraft Studio</p>
      </div>
    </footer>
  );
}
