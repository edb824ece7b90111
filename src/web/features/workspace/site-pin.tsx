import { useRef, useState } from 'react';
import type { Review, ReviewComment } from '../../../contract/reviews.ts';
import { SITE_PIN_FRAGMENT } from '../../../contract/site-review-fragment.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { PanelError } from './panel-ui.tsx';
import { useImageUrl } from './use-file-url.ts';
import { SITE_LINK, type Workspace } from './workspace-api.ts';

// Pins on the live site (decision 241) in the round beside image pins: the page, the window and
// the browser, the screenshot (opens large), and "Show on the site". "Review the live site" opens
// the round's preview with a site token in the fragment (decision 240), for review.js.

/** "/pricing · 390 × 844 · Safari iOS" */
export function sitePinPlace(c: Pick<ReviewComment, 'pageUrl' | 'viewport' | 'browser'>): string {
  let page = c.pageUrl ?? '';
  try {
    const u = new URL(page);
    page = `${u.pathname}${u.search}`;
  } catch {
    // Shown as stored.
  }
  return [page, c.viewport ? `${c.viewport.width} × ${c.viewport.height}` : null, c.browser].filter(Boolean).join(' · ');
}

/**
 * Opens the preview with a fresh site token. The tab opens at once (within the click, so no popup
 * blocker stops it) and goes to the link when it arrives; the opener is cut before that.
 */
async function openWithToken(ws: Workspace, review: Review, page: string | null, pinId?: string): Promise<string | null> {
  const tab = window.open('', '_blank');
  if (tab) tab.opener = null;
  try {
    const { url } = await call(SITE_LINK[ws.side], { params: { orderId: ws.orderId, reviewId: review.id } });
    const token = new URL(url).hash.slice(1);
    const target = new URL(page ?? url);
    target.hash = pinId ? `${token}&${SITE_PIN_FRAGMENT}=${encodeURIComponent(pinId)}` : token;
    if (tab) tab.location.href = target.toString();
    else window.location.href = target.toString();
    return null;
  } catch (err) {
    tab?.close();
    return errorMessage(err);
  }
}

/** Without an open round there is no token: the page alone, with the pin named for when a token comes. */
const plainPage = (page: string, pinId: string) => `${page.split('#')[0]}#${SITE_PIN_FRAGMENT}=${encodeURIComponent(pinId)}`;

export function LiveSiteButton({ ws, review }: { ws: Workspace; review: Review }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!review.previewUrl || review.state !== 'open') return null;
  return (
    <div className="flex flex-col gap-2">
      <Button
        className="w-fit"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(await openWithToken(ws, review, null));
          setBusy(false);
        }}
      >
        Review the live site
      </Button>
      <p className="text-xs text-muted">
        Opens the site in a new tab with a review toolbar: click or tap what you want changed and write a comment. The link works for{' '}
        {ws.side === 'customer' ? 'you' : 'the team'} only, for one day.
      </p>
      {error && <PanelError message={error} />}
    </div>
  );
}

export function SitePinDetails({ ws, review, comment, number }: { ws: Workspace; review: Review; comment: ReviewComment; number: number }) {
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const shot = useImageUrl(ws, comment.screenshotFileId ? { id: comment.screenshotFileId, contentType: 'image/png' } : undefined);
  const open = review.state === 'open';
  return (
    <div className="ml-10 flex flex-col gap-2" data-testid="site-pin">
      <p className="text-xs wrap-anywhere text-muted">{sitePinPlace(comment)}</p>
      <div className="flex flex-wrap items-center gap-2">
        {shot && (
          <button
            type="button"
            className="overflow-hidden rounded-lg border border-line"
            onClick={() => dialog.current?.showModal()}
            aria-label={`Screenshot of pin ${number}, open large`}
          >
            <img src={shot} alt="" className="h-16 w-28 object-cover object-top" />
          </button>
        )}
        {open ? (
          <Button
            variant="secondary"
            className="px-3 py-1.5"
            onClick={async () => setError(await openWithToken(ws, review, comment.pageUrl, comment.id))}
            aria-label={`Show pin ${number} on the site`}
          >
            Show on the site
          </Button>
        ) : (
          comment.pageUrl && (
            <a
              href={plainPage(comment.pageUrl, comment.id)}
              target="_blank"
              rel="noopener noreferrer nofollow"
              className="text-sm text-accent-soft underline"
            >
              Show on the site ↗
            </a>
          )
        )}
      </div>
      {error && <PanelError message={error} />}
      {shot && (
        <dialog
          ref={dialog}
          className="m-auto max-h-[90vh] max-w-[95vw] rounded-xl border border-line bg-card p-3 text-ink backdrop:bg-black/70"
          aria-label={`Screenshot of pin ${number}`}
        >
          <img
            src={shot}
            alt={`The page when pin ${number} was dropped (${sitePinPlace(comment)})`}
            className="max-h-[78vh] w-auto max-w-full"
          />
          <form method="dialog" className="mt-2 flex justify-end">
            <Button type="submit" variant="secondary">
              Close
            </Button>
          </form>
        </dialog>
      )}
    </div>
  );
}

/** The hint for a round of the live site only (no files to pin on). */
export const LIVE_SITE_HINT =
  'Open the live site with “Review the live site”, click or tap what you want changed, then approve it or ask for changes below.';
