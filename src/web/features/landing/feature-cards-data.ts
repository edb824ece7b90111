// Spec §3 "Feature card": id, image, direction, heading, color, text, glowColor. The ids are the
// anchors of the quality-links row and the landing top bar.
export interface FeatureCardData {
  id: 'delivery' | 'design' | 'performance' | 'no_no_code' | 'service';
  /** The label used by the quality links and the top bar. */
  label: string;
  heading: string;
  text: string;
  image: string;
  imageAlt: string;
  /** Which side the image sits on; the card slides in from that side. */
  direction: 'left' | 'right';
  /** Accent for the heading and the glow behind the image. */
  color: string;
  glowColor: string;
}

export const FEATURE_CARDS: readonly FeatureCardData[] = [
  {
    id: 'delivery',
    label: 'Fast Delivery',
    heading: 'Live in weeks, not months',
    text: 'Your website is delivered within 4 weeks after you approve the final UI. An advance payment starts the work, and you follow every step on your dashboard until launch.',
    image: '/images/delivery.svg',
    imageAlt: 'A rocket leaving a calendar',
    direction: 'right',
    color: '#4ade80',
    glowColor: 'rgba(34, 197, 94, 0.45)',
  },
  {
    id: 'design',
    label: 'Precise Design',
    heading: 'Pixel-precise, high-quality UI/UX',
    text: 'We design every screen with you before a line of code is written: up to 50 responsive screens that look sharp on phones, tablets and wide monitors alike.',
    image: '/images/design.svg',
    imageAlt: 'A design canvas with a grid, shapes and a pen',
    direction: 'left',
    color: '#2dd4bf',
    glowColor: 'rgba(20, 184, 166, 0.45)',
  },
  {
    id: 'performance',
    label: 'Great Performance',
    heading: 'Fast, secure and search-friendly',
    text: 'Performance, speed and security are built in from day one, with search-engine-friendly practices applied throughout. Advanced SEO is available as a separate service.',
    image: '/images/performance.svg',
    imageAlt: 'A speed gauge at its maximum with a shield',
    direction: 'right',
    color: '#f472b6',
    glowColor: 'rgba(236, 72, 153, 0.45)',
  },
  {
    id: 'no_no_code',
    label: 'Custom Code',
    heading: 'Custom code only, no no-code tools',
    text: 'Every site is hand-built by our developers, with up to 30 APIs, so it does exactly what your business needs and can grow with it. No templates, no page builders.',
    image: '/images/custom-code.svg',
    imageAlt: 'A code editor with hand-written code',
    direction: 'left',
    color: '#facc15',
    glowColor: 'rgba(234, 179, 8, 0.42)',
  },
  {
    id: 'service',
    label: 'Top-Notch Service',
    heading: 'One year of customer support',
    text: 'Deployment is included and we stay with you after launch: one full year of support, a real person to talk to, and your website link handed over as soon as the final payment is made.',
    image: '/images/service.svg',
    imageAlt: 'A support headset with chat bubbles and a heart',
    direction: 'right',
    color: '#f87171',
    glowColor: 'rgba(239, 68, 68, 0.42)',
  },
];
