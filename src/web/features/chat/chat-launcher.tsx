import { useEffect, useState, type ComponentType } from 'react';
import { postChatUnreadEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';
import { LauncherButton } from './launcher-button.tsx';
import { storedChatId } from '../../lib/chat-storage.ts';
import type { ChatWidgetProps } from './chat-widget.tsx';

// Rendered on every page: stays tiny. The widget and socket.io-client load with import() only when
// the visitor opens the chat. A returning visitor with a chat learns about replies
// through one small HTTP call, without loading the socket.
export function ChatLauncher() {
  const [Widget, setWidget] = useState<ComponentType<ChatWidgetProps> | null>(null);
  const [unread, setUnread] = useState(0);

  useEffect(() => {
    const chatId = storedChatId();
    if (!chatId) return;
    const timer = setTimeout(() => {
      callEndpoint(postChatUnreadEndpoint, { body: { chatId } })
        .then((r) => setUnread(r.state === 'closed' ? 0 : r.unread))
        .catch(() => {});
    }, 1500);
    return () => clearTimeout(timer);
  }, []);

  if (Widget) return <Widget initialUnread={unread} />;
  return (
    <LauncherButton
      unread={unread}
      expanded={false}
      onClick={() => {
        void import('./chat-widget.tsx').then((m) => setWidget(() => m.ChatWidget));
      }}
    />
  );
}
