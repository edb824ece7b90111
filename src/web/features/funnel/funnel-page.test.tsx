import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { funnelCountsOf, type FunnelResponse } from '../../../contract/funnel.ts';
import { ALL, enquiriesOf, FunnelView, funnelSteps, seriesByStage, stepRate } from './funnel-page.tsx';

const c = funnelCountsOf;
const EVIL = '<script>alert(1)</script>';
const data: FunnelResponse = {
  success: true,
  generatedAt: '2026-05-06T10:00:00.000Z',
  weeks: ['2026-04-27', '2026-05-04'],
  total: [c({ visitors: 10, leads: 1 }), c({ visitors: 7, signups: 2, advancePaid: 1 })],
  sources: [
    {
      source: 'newsletter',
      perWeek: [c({ visitors: 4, leads: 1 }), c({ visitors: 3, signups: 1, advancePaid: 1 })],
      total: c({ visitors: 7, leads: 1, signups: 1, advancePaid: 1 }),
    },
    {
      source: EVIL,
      perWeek: [c({ visitors: 6 }), c({ visitors: 4, signups: 1 })],
      total: c({ visitors: 10, signups: 1 }),
    },
  ],
};

describe('funnel page', () => {
  it('shows a forged source as text, never as markup (chart, legend, numbers and table)', () => {
    const html = renderToStaticMarkup(<FunnelView data={data} stage="visitors" source={ALL} />);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('newsletter');
  });

  it('keeps leads and contact messages beside the steps and stacks a stage by source', () => {
    expect(funnelSteps(c({ visitors: 9, leads: 2, contacts: 3, signups: 4 })).map((s) => s.value)).toEqual([9, 4, 0, 0]);
    expect(enquiriesOf(c({ visitors: 9, leads: 2, contacts: 3 }))).toBe(5);
    const series = seriesByStage(data, 'visitors', ALL);
    expect(series.map((s) => [s.label, s.values])).toEqual([
      [EVIL, [6, 4]],
      ['newsletter', [4, 3]],
    ]);
    expect(seriesByStage(data, 'advancePaid', 'newsletter')[0]!.values).toEqual([0, 1]);
  });

  it('never shows a step conversion over 100 % (the issue: 1 contact message, 2 sign-ups read 200 %)', () => {
    expect(stepRate(1, 2)).toBe('50 %');
    expect(stepRate(2, 2)).toBe('100 %');
    expect(stepRate(3, 2)).toBeNull();
    expect(stepRate(0, 0)).toBeNull();
    const html = renderToStaticMarkup(
      <FunnelView
        data={{ ...data, sources: [], total: [c({ visitors: 5, contacts: 1, signups: 2, advancePaid: 3 })], weeks: ['2026-05-04'] }}
        stage="visitors"
        source={ALL}
      />,
    );
    expect(html).not.toMatch(/\d{3,} %/);
    // What a reader sees (the text without its markup), not how it is styled.
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('Visitors → Sign-ups: 40 %');
    expect(text).toContain('Sign-ups → Advance paid: —');
    expect(text).toContain('Leads and contact messages: 1');
    expect(html).not.toContain('contact messages → Sign-ups');
  });
});
