import { siteConfig } from '../lib/site-config.ts';

/** The logo: the brand mark and name, always a link to / (spec §2). */
export function BrandLogo({ className = '' }: { className?: string }) {
  const { brand } = siteConfig();
  return (
    <a
      href="/"
      className={`inline-flex items-center gap-2 text-lg font-bold tracking-tight text-white ${className}`}
      aria-label={`${brand} home`}
    >
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <defs>
          <linearGradient id="logo-g" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#a78bfa" />
            <stop offset="1" stopColor="#14b8a6" />
          </linearGradient>
        </defs>
        <rect x="1" y="1" width="30" height="30" rx="9" fill="url(#logo-g)" />
        <path
          d="M8 11l3.2 10L16 12.5 20.8 21 24 11"
          fill="none"
          stroke="#0b0b10"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>{brand}</span>
    </a>
  );
}
