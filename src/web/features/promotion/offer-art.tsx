/** Our own illustration for the offer: a gift box with a coupon tag and sparkles. */
export function OfferArt({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 240 240" className={className} role="img" aria-label="A gift box with a discount tag">
      <defs>
        <linearGradient id="offer-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4c1d95" />
          <stop offset="1" stopColor="#831843" />
        </linearGradient>
        <linearGradient id="offer-box" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#a78bfa" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="240" height="240" rx="24" fill="url(#offer-bg)" />
      <circle cx="120" cy="128" r="86" fill="#ffffff" opacity="0.06" />
      <rect x="62" y="110" width="116" height="84" rx="8" fill="url(#offer-box)" />
      <rect x="54" y="92" width="132" height="26" rx="6" fill="#c4b5fd" />
      <rect x="112" y="92" width="16" height="102" fill="#f472b6" />
      <path
        d="M120 92c-14-26-44-26-40-8 3 12 26 10 40 8Zm0 0c14-26 44-26 40-8-3 12-26 10-40 8Z"
        fill="none"
        stroke="#f472b6"
        strokeWidth="8"
        strokeLinejoin="round"
      />
      <g transform="rotate(-14 168 66)">
        <path d="M142 48h52l10 18-10 18h-52z" fill="#facc15" />
        <circle cx="150" cy="66" r="4" fill="#4c1d95" />
        <text x="178" y="72" textAnchor="middle" fontFamily="Arial, sans-serif" fontWeight="700" fontSize="17" fill="#1f1147">
          %
        </text>
      </g>
      <path
        d="M48 54l4 10 10 4-10 4-4 10-4-10-10-4 10-4zM198 150l3 7 7 3-7 3-3 7-3-7-7-3 7-3zM40 170l2 5 5 2-5 2-2 5-2-5-5-2 5-2z"
        fill="#fde68a"
      />
    </svg>
  );
}
