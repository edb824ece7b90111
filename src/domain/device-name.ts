// The sessions list names each device from its user agent ("Chrome on Windows"). A handful of
// patterns is enough for a person to recognise their own phone or laptop; a full user-agent
// database would be a dependency to keep current for a label. Order matters: Edge, Opera and
// Samsung Internet also say "Chrome", Chrome also says "Safari", an iPad may say "Macintosh".

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (ua: string, table: [RegExp, string][]) => table.find(([re]) => re.test(ua))?.[1];

/** "Chrome on Windows", "Safari on iPhone", "Firefox", "Android", or "Unknown device". */
export function deviceName(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 500);
  const browser = first(ua, BROWSERS);
  const system = first(ua, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
