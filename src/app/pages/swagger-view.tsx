import { useEffect, useRef } from 'react';
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import './swagger-view.css';

/**
 * swagger-ui leaves the server chooser and a server's variable fields without a name (a spec with `servers`
 * variables): named here as they appear, so the page stays usable with a screen reader.
 */
function nameUnlabelledControls(root: HTMLElement): void {
  const servers = root.querySelector<HTMLSelectElement>('select#servers:not([aria-label])');
  servers?.setAttribute('aria-label', 'Server');
  for (const input of root.querySelectorAll<HTMLInputElement>('input[data-variable]:not([aria-label])'))
    input.setAttribute('aria-label', `Server variable ${input.dataset['variable'] ?? ''}`.trim());
}

/**
 * The interactive API view (integrations.md 4): swagger-ui's BaseLayout (no validator badge, no outside
 * requests), read only: no "try it out". Its own chunk, loaded by the spec view only.
 */
export default function SwaggerView({ spec }: { spec: object }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    nameUnlabelledControls(element);
    const observer = new MutationObserver(() => nameUnlabelledControls(element));
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="beacon-swagger" ref={root}>
      <SwaggerUI spec={spec} layout="BaseLayout" supportedSubmitMethods={[]} tryItOutEnabled={false} />
    </div>
  );
}
