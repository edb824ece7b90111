import { siteConfig } from '../lib/site-config.ts';
import { FooterWeather } from '../features/geo/footer-weather.tsx';
import { Island } from '../islands/island.tsx';
import { BrandLogo } from '../components/brand-logo.tsx';
import { SocialLinks } from '../components/social-links.tsx';

// Spec §2 footer: quick links, docs links (named as the pages, not by their slugs), address, support phone and e-mail, location, date and
// time, weather, social strip, copyright 2024. Business details come from the site configuration.
const quickLinks = [
  { to: '/about', label: 'About' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/contact', label: 'Contact' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/login', label: 'Login' },
  { to: '/logout', label: 'Logout' },
];
const docsLinks = [
  { to: '/privacypolicy', label: 'Privacy policy' },
  { to: '/termsandconditions', label: 'Terms and conditions' },
  { to: '/faqs', label: 'FAQs' },
];

function FooterLinks({ id, title, links }: { id: string; title: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="font-semibold text-white">
        {title}
      </h2>
      <ul className="mt-2">
        {links.map((l) => (
          <li key={l.to}>
            <a href={l.to} className="inline-block py-1 text-muted transition-colors hover:text-white">
              {l.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter() {
  const site = siteConfig();
  return (
    <footer data-testid="site-footer" className="border-t border-line bg-[#08080c] px-4 pt-12 pb-24 text-sm sm:pb-20">
      <div className="mx-auto grid max-w-6xl gap-10 md:grid-cols-2 lg:grid-cols-[1.3fr_0.8fr_0.9fr_1.3fr]">
        <div>
          <BrandLogo />
          <p className="mt-3 max-w-xs text-muted">Custom-coded, fast and secure websites for new ventures.</p>
          <address className="mt-4 flex flex-col gap-1 not-italic text-ink">
            <span data-testid="footer-address">{site.address}</span>
            <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`} className="text-ink hover:text-white">
              Support: {site.phone}
            </a>
            <a href={`mailto:${site.email}`} className="text-ink hover:text-white">
              {site.email}
            </a>
          </address>
        </div>
        <FooterLinks id="footer-quick" title="Quick links" links={quickLinks} />
        <FooterLinks id="footer-docs" title="Docs" links={docsLinks} />
        <Island name="footer-weather" hydrate={['visible', 'interaction']} component={FooterWeather} props={{}} />
      </div>
      <div
        className="mx-auto mt-10 flex max-w-6xl flex-col-reverse items-start justify-between gap-4 border-t border-line pt-6 sm:flex-row
          sm:items-center"
      >
        <p className="text-muted">© 2024 {site.brand}. All rights reserved.</p>
        <SocialLinks />
      </div>
    </footer>
  );
}
