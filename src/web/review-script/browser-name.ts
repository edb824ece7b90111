// "Safari iOS", "Chrome Android", "Firefox Windows": enough for the founder to reproduce a pin.
const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function describeBrowser(ua: string): string {
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? 'Browser';
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  return system ? `${browser} ${system}` : browser;
}
