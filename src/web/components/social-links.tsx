import { siteConfig } from '../lib/site-config.ts';

// Spec §2 social strip: messaging chat, social network, professional network, video channel,
// microblog, photo sharing. Our own simple glyphs (no third-party icon fonts or scripts).
const glyphs = {
  whatsapp: (
    <path d="M12 3a9 9 0 0 0-7.8 13.5L3 21l4.6-1.2A9 9 0 1 0 12 3Zm4.5 12.4c-.2.6-1.2 1.1-1.7 1.1-.4 0-1 .1-3.2-.8-2.7-1.1-4.4-3.9-4.5-4.1-.1-.2-1.1-1.4-1.1-2.7s.7-1.9.9-2.2c.2-.3.5-.3.7-.3h.5c.2 0 .4 0 .6.5l.8 1.9c.1.2.1.3 0 .5l-.3.5-.4.4c-.1.1-.3.3-.1.6.2.3.8 1.3 1.7 2.1 1.2 1 2.1 1.4 2.4 1.5.3.1.5.1.6-.1l.8-1c.2-.3.4-.2.6-.1l1.8.9c.3.1.4.2.5.3.1.2.1.6-.1 1.2Z" />
  ),
  facebook: (
    <path d="M13.5 21v-7.5H16l.4-3h-2.9V8.6c0-.9.3-1.5 1.5-1.5h1.6V4.4A21 21 0 0 0 14.3 4c-2.3 0-3.9 1.4-3.9 4v2.5H7.8v3h2.6V21h3.1Z" />
  ),
  linkedin: (
    <path d="M5 8.5h3V19H5V8.5ZM6.5 4a1.8 1.8 0 1 1 0 3.5 1.8 1.8 0 0 1 0-3.5ZM10 8.5h2.9v1.4c.4-.8 1.4-1.7 3-1.7 3.1 0 3.6 2 3.6 4.7V19h-3v-5.4c0-1.3 0-2.9-1.8-2.9s-2 1.4-2 2.8V19H10V8.5Z" />
  ),
  youtube: (
    <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2C2 8.8 2 12 2 12s0 3.2.4 4.8c.2.9.9 1.6 1.8 1.8 1.6.4 7.8.4 7.8.4s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8ZM10 15V9l5.2 3-5.2 3Z" />
  ),
  twitter: <path d="M17.8 3H21l-7 8 8.2 10h-6.4l-5-6.2L5 21H1.8l7.5-8.6L1.4 3H8l4.5 5.7L17.8 3Zm-1.1 16.2h1.8L7.4 4.7H5.5l11.2 14.5Z" />,
  instagram: (
    <path d="M12 7.4a4.6 4.6 0 1 0 0 9.2 4.6 4.6 0 0 0 0-9.2Zm0 7.6a3 3 0 1 1 0-6 3 3 0 0 1 0 6Zm5.8-7.8a1.1 1.1 0 1 1-2.2 0 1.1 1.1 0 0 1 2.2 0ZM21 7.3c-.1-1.5-.4-2.8-1.5-3.8S17.2 2.1 15.7 2H8.3c-1.5.1-2.8.4-3.8 1.5S3.1 5.8 3 7.3v9.4c.1 1.5.4 2.8 1.5 3.8s2.3 1.4 3.8 1.5h7.4c1.5-.1 2.8-.4 3.8-1.5s1.4-2.3 1.5-3.8V7.3Zm-2 10.7a3 3 0 0 1-1.7 1.7c-1.2.5-4 .4-5.3.4s-4.1.1-5.3-.4A3 3 0 0 1 5 18c-.5-1.2-.4-4-.4-5.3s-.1-4.1.4-5.3A3 3 0 0 1 6.7 5.7C7.9 5.2 10.7 5.3 12 5.3s4.1-.1 5.3.4A3 3 0 0 1 19 7.4c.5 1.2.4 4 .4 5.3s.1 4.1-.4 5.3Z" />
  ),
} as const;

const labels: Record<keyof typeof glyphs, string> = {
  whatsapp: 'Chat with us on WhatsApp',
  facebook: 'Facebook page',
  linkedin: 'LinkedIn page',
  youtube: 'YouTube channel',
  twitter: 'X (Twitter) profile',
  instagram: 'Instagram profile',
};

export function SocialLinks({ className = '' }: { className?: string }) {
  const { social } = siteConfig();
  return (
    <ul className={`flex flex-wrap gap-2 ${className}`} data-testid="social-links">
      {(Object.keys(glyphs) as (keyof typeof glyphs)[]).map((key) => (
        <li key={key}>
          <a
            href={social[key]}
            target="_blank"
            rel="noopener noreferrer"
            aria-label={labels[key]}
            className="inline-flex h-11 w-11 items-center justify-center rounded-full border border-line text-muted transition-colors
              hover:border-accent hover:text-white"
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor" aria-hidden="true">
              {glyphs[key]}
            </svg>
          </a>
        </li>
      ))}
    </ul>
  );
}
