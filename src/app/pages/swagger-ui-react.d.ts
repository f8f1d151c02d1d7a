declare module 'swagger-ui-react' {
  import type { ComponentType } from 'react';
  const SwaggerUI: ComponentType<{
    spec?: object | string;
    url?: string;
    layout?: string;
    supportedSubmitMethods?: string[];
    tryItOutEnabled?: boolean;
    docExpansion?: 'list' | 'full' | 'none';
  }>;
  export default SwaggerUI;
}
