import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import './swagger-view.css';

/**
 * The interactive API view (integrations.md 4): swagger-ui's BaseLayout (no validator badge, no outside
 * requests), read only: no "try it out". Its own chunk, loaded by the spec view only.
 */
export default function SwaggerView({ spec }: { spec: object }) {
  return (
    <div className="beacon-swagger">
      <SwaggerUI spec={spec} layout="BaseLayout" supportedSubmitMethods={[]} tryItOutEnabled={false} />
    </div>
  );
}
