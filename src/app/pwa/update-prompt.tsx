import { Button } from 'primereact/button';
import { useRegisterSW } from 'virtual:pwa-register/react';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker. When a new build is waiting, offers to reload: the page is reloaded only
 * when the user says so, never under an unsaved form (docs/decisions.md#runtime-and-dependencies).
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    // A tab left open for days still learns of new builds.
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update(), UPDATE_CHECK_MS);
    },
  });
  if (!needRefresh) return null;
  return (
    <div
      className="beacon-update-prompt surface-card shadow-3 border-round p-3 flex align-items-center gap-3"
      role="alert"
    >
      <span>A new version is available.</span>
      <Button label="Reload" size="small" onClick={() => void updateServiceWorker(true)} />
      <Button label="Later" size="small" text onClick={() => setNeedRefresh(false)} />
    </div>
  );
}
