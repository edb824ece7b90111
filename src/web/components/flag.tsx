// Flags are images from the `flag-icons` package (emoji flags do not render everywhere). Each SVG
// becomes its own hashed, immutable asset and is fetched only when shown.
const flagUrls = import.meta.glob<string>('./*.svg', {
  base: '../../../node_modules/flag-icons/flags/4x3',
  query: '?no-inline',
  import: 'default',
  eager: true,
});

const byCode = new Map(Object.entries(flagUrls).map(([path, url]) => [path.slice(2, -4), url]));

export function flagUrl(isoCode: string): string | undefined {
  return byCode.get(isoCode.toLowerCase());
}

/** A 4:3 flag, 20×15 px by default; decorative unless given alt text. */
export function Flag({ code, alt = '', className = 'h-[15px] w-5' }: { code: string; alt?: string; className?: string }) {
  const src = flagUrl(code);
  if (!src) return <span className={`inline-block rounded-sm bg-line ${className}`} aria-hidden="true" />;
  return (
    <img
      src={src}
      alt={alt}
      width={20}
      height={15}
      loading="lazy"
      decoding="async"
      className={`inline-block shrink-0 rounded-sm object-cover ${className}`}
    />
  );
}
