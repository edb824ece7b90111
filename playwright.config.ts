import { defineConfig, devices } from '@playwright/test';
import { APP_URL } from './tests/e2e/ports.ts';

// Debian's Chromium, never a downloaded browser: the npm registry is the only source this project counts on.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath: chromium,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: APP_URL,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
      grepInvert: /@global-state/,
    },
    { name: 'mobile', use: { ...devices['Pixel 7'], viewport: { width: 390, height: 844 }, launchOptions }, grep: /@mobile/ },
    // Tests that change what every visitor sees (the featured promotion) run alone, after the others:
    // with two workers, a banner test elsewhere could otherwise see the founder's temporary offer.
    {
      name: 'global-state',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions },
      grep: /@global-state/,
      dependencies: ['desktop', 'mobile'],
    },
  ],
  webServer: {
    command: 'node --import tsx tests/e2e/stack.ts',
    url: `${APP_URL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 180_000, // a busy 2-core machine can take a minute to start the stack
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
