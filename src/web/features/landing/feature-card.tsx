import type { FeatureCardData } from './feature-cards-data.ts';

/**
 * One feature card (spec §2): text and image on alternating sides with a glow colour. It slides in
 * when 20 % of it is visible and out again when it leaves (enhance-feature-cards.ts sets
 * data-visible). Prerendered visible, so the content is there without JavaScript.
 */
export function FeatureCard({ card, index }: { card: FeatureCardData; index: number }) {
  const imageFirst = card.direction === 'left';
  return (
    <section
      id={card.id}
      aria-labelledby={`${card.id}-title`}
      data-testid={`feature-${card.id}`}
      data-visible="true"
      data-from={card.direction}
      className="feature-card mx-auto grid max-w-6xl scroll-mt-20 items-center gap-8 px-4 py-14 md:grid-cols-2 md:gap-14 md:py-20"
    >
      <div className={imageFirst ? 'md:order-2' : ''}>
        <p className="text-sm font-semibold tracking-[0.2em] uppercase" style={{ color: card.color }}>
          {String(index + 1).padStart(2, '0')} · {card.label}
        </p>
        <h2 id={`${card.id}-title`} className="mt-3 text-3xl font-bold tracking-tight text-white md:text-4xl">
          {card.heading}
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-muted">{card.text}</p>
      </div>
      <div className={`relative ${imageFirst ? 'md:order-1' : ''}`}>
        <div aria-hidden="true" className="absolute inset-6 rounded-[2rem] blur-3xl" style={{ background: card.glowColor }} />
        <img
          src={card.image}
          alt={card.imageAlt}
          width={480}
          height={360}
          loading="lazy"
          decoding="async"
          className="relative h-auto w-full rounded-[1.75rem] border border-line"
        />
      </div>
    </section>
  );
}
