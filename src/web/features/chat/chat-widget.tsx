import { useCallback, useEffect, useRef, useState } from 'react';
import { siteConfig } from '../../lib/site-config.ts';
import { AiTab } from './ai-tab.tsx';
import { storeChatId, storedChatId } from '../../lib/chat-storage.ts';
import { HumanTab } from './human-tab.tsx';
import { LauncherButton } from './launcher-button.tsx';
import { playChime, primeSound } from './sound.ts';
import { useLiveChat } from './use-live-chat.ts';
import { useRotatingLabel } from './use-rotating-label.ts';
import type { Promotion } from '../../../contract/promotion.ts';
import { usePromotion } from '../promotion/index.ts';
import { formatWhenShort } from '../../../domain/when.ts';

export interface ChatWidgetProps {
  initialUnread: number;
}

type Tab = 'ai' | 'human';

/** The 'Help & Support' widget (spec §2 "Chat widget"), loaded on first open. */
export function ChatWidget({ initialUnread }: ChatWidgetProps) {
  const { brand, founder } = siteConfig();
  const [isOpen, setOpen] = useState(true);
  const [tab, setTab] = useState<Tab>('ai');
  const [unread, setUnread] = useState(initialUnread);
  const [chimes, setChimes] = useState(0);
  // A returning visitor's chat reconnects at once, so replies raise the badge while closed.
  const [isHumanActive, setHumanActive] = useState(() => storedChatId() !== null);
  const watching = useRef({ isOpen, tab });
  watching.current = { isOpen, tab };

  const chat = useLiveChat({
    active: isHumanActive,
    initialChatId: storedChatId(),
    onChatId: storeChatId,
    onAdminMessage: useCallback(() => {
      if (watching.current.isOpen && watching.current.tab === 'human') return;
      setUnread((n) => n + 1);
      setChimes((n) => n + 1);
      playChime();
    }, []),
  });

  useEffect(() => {
    if (isOpen && tab === 'human') setUnread(0);
  }, [isOpen, tab, chat.messages.length]);

  useEffect(() => primeSound(), []);

  const chooseHuman = () => {
    setTab('human');
    setHumanActive(true);
  };

  // Presence is said only once the server has told it: never "online" by default.
  const labels =
    chat.adminOnline === null
      ? ['Chat with our team']
      : ['Chat with our team', chat.adminOnline ? `${founder} is online` : 'Leave us a message'];
  const rotating = useRotatingLabel(labels);

  return (
    <div data-testid="chat-widget" data-chimes={chimes}>
      {/* Hidden, not unmounted, when closed: the socket and a running reply keep going. */}
      <section
        hidden={!isOpen}
        id="chat-panel"
        aria-label="Help and support chat"
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        className="fixed inset-x-2 bottom-20 z-[200] flex h-[600px] [&[hidden]]:hidden max-h-[calc(100dvh-6rem)] flex-col overflow-hidden
          rounded-2xl border border-line bg-card shadow-2xl shadow-black/60 sm:inset-x-auto sm:right-4 sm:w-[24rem]"
      >
        <header className="flex items-center justify-between border-b border-line px-4 py-3">
          <h2 className="text-base font-semibold text-white">{brand} Support</h2>
          <button
            type="button"
            onClick={() => setOpen(false)}
            aria-label="Close chat"
            className="rounded-lg p-1 text-muted hover:text-white"
          >
            <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <PromoMarquee />
        <div role="tablist" aria-label="Chat mode" className="grid grid-cols-2 border-b border-line text-sm">
          <TabButton id="ai" selected={tab === 'ai'} onSelect={() => setTab('ai')}>
            Ask AI
          </TabButton>
          <TabButton id="human" selected={tab === 'human'} onSelect={chooseHuman}>
            <span
              style={{
                opacity: rotating.isVisible ? 1 : 0,
                transition: `opacity ${rotating.fadeMs}ms`,
              }}
              data-testid="human-tab-label"
            >
              {rotating.label}
            </span>
            {unread > 0 && tab !== 'human' && (
              <>
                <span className="ml-1 inline-block h-2 w-2 rounded-full bg-violet-300" aria-hidden="true" data-testid="human-tab-dot" />
                <span className="sr-only"> (new reply)</span>
              </>
            )}
          </TabButton>
        </div>
        <div
          role="tabpanel"
          id="chat-tabpanel-ai"
          aria-labelledby="chat-tab-ai"
          hidden={tab !== 'ai'}
          className="flex min-h-0 flex-1 flex-col [&[hidden]]:hidden"
        >
          <AiTab onTalkToPerson={chooseHuman} />
        </div>
        <div
          role="tabpanel"
          id="chat-tabpanel-human"
          aria-labelledby="chat-tab-human"
          hidden={tab !== 'human'}
          className="flex min-h-0 flex-1 flex-col [&[hidden]]:hidden"
        >
          {isHumanActive && <HumanTab chat={chat} />}
        </div>
      </section>
      <LauncherButton
        unread={isOpen && tab === 'human' ? 0 : unread}
        expanded={isOpen}
        onClick={() => {
          primeSound();
          // Spec §2: opening shows the AI tab (a reply waiting is marked on the human tab).
          if (!isOpen) setTab('ai');
          setOpen(!isOpen);
        }}
      />
    </div>
  );
}

function TabButton({ id, selected, onSelect, children }: { id: Tab; selected: boolean; onSelect: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      role="tab"
      id={`chat-tab-${id}`}
      aria-selected={selected}
      aria-controls={`chat-tabpanel-${id}`}
      onClick={onSelect}
      className={`px-3 py-2.5 font-semibold ${selected ? 'border-b-2 border-accent text-white' : 'text-muted hover:text-white'}`}
    >
      {children}
    </button>
  );
}

/** The banner's words for the featured promotion; null when there is no running offer to show. */
export function promoText(promotion: Promotion | null, now = Date.now()): string | null {
  if (!promotion) return null;
  if (promotion.endsAt && Date.parse(promotion.endsAt) <= now) return null;
  const until = promotion.endsAt ? ` — valid till ${formatWhenShort(promotion.endsAt)}` : '';
  return `${promotion.percent}% off with code ${promotion.code}${until}. See pricing →`;
}

/**
 * Spec §2: a scrolling banner for the offer, linking to pricing. It follows the featured promotion
 * the founder sets: no running offer, no banner. Static under reduced motion.
 * A plain link: the widget also lives in an island of a prerendered page, where there is no router
 * (decision 074); /pricing is a prerendered page, so a page load is what the router app does too.
 */
function PromoMarquee() {
  const state = usePromotion();
  const text = state.status === 'ready' ? promoText(state.promotion) : null;
  if (!text) return null;
  return (
    <a
      href="/pricing"
      aria-label={text.replace(' →', '')}
      className="block overflow-hidden border-b border-line bg-violet-950/60 py-1.5 text-xs font-medium whitespace-nowrap text-violet-100"
      data-testid="chat-promo"
    >
      <style>{'@keyframes chat-marquee{from{transform:translateX(0)}to{transform:translateX(-50%)}}'}</style>
      {/* Two copies side by side scroll by half their width: a seamless loop. */}
      <span className="inline-flex motion-safe:animate-[chat-marquee_18s_linear_infinite]" aria-hidden="true">
        <span className="px-8">{text}</span>
        <span className="px-8">{text}</span>
      </span>
    </a>
  );
}
