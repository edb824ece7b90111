// Mount point for the 'Help & Support' chat widget (issue "Support chat"); renders nothing until then.
export function ChatLauncher() {
  return null;
}
