// The public face of src/web/features/chat: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { openChatSocket } from './chat-socket.ts';
