/**
 * The demo's small API and its spec (issue 30): the demo target answers it, its spec is published on Checkout, and
 * the checks made from the spec find drift: one operation answers an order's total as text where the spec says a
 * number, so a newcomer sees "API drift" within a minute. The other operations answer as documented.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The spec page's handle and version (a spec page's title is its version). */
export const DEMO_SPEC = { handle: 'orders-api', version: '1.4.0' } as const;

const ORDERS = [
  { id: 'o-1001', status: 'paid', total: 42.5, currency: 'EUR', placed_at: '2026-11-20T09:12:00Z' },
  { id: 'o-1002', status: 'shipped', total: 18, currency: 'EUR', placed_at: '2026-11-21T14:40:00Z' },
];

/** The spec as published: its server is the demo target's HTTP port. */
export function demoOrdersSpec(httpPort: number): string {
  return `openapi: 3.0.3
info:
  title: Orders API
  version: ${DEMO_SPEC.version}
servers:
  - url: http://localhost:{port}/orders
    variables:
      port:
        default: "${httpPort}"
paths:
  /status:
    get:
      operationId: getStatus
      summary: Service status
      responses:
        "200":
          description: Up
          content:
            application/json:
              schema:
                type: object
                required: [status]
                properties:
                  status: { type: string, enum: [UP, DEGRADED] }
  /orders:
    get:
      operationId: listOrders
      summary: Recent orders
      parameters:
        - name: limit
          in: query
          schema: { type: integer, default: 20 }
      responses:
        "200":
          description: Orders, newest first
          content:
            application/json:
              schema:
                type: array
                items: { $ref: "#/components/schemas/Order" }
    post:
      operationId: placeOrder
      summary: Place an order
      requestBody:
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Order" }
      responses:
        "201": { description: Placed }
  /orders/{orderId}:
    get:
      operationId: getOrder
      summary: One order
      parameters:
        - name: orderId
          in: path
          required: true
          schema: { type: string }
          example: o-1001
      responses:
        "200":
          description: The order
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Order" }
        "404": { description: No such order }
components:
  schemas:
    Order:
      type: object
      required: [id, status, total, currency]
      properties:
        id: { type: string }
        status: { type: string, enum: [paid, shipped, refunded] }
        total: { type: number }
        currency: { type: string, minLength: 3, maxLength: 3 }
        placed_at: { type: string, format: date-time }
`;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

/** Answers a request under /orders; false when the path is not the API's. */
export function answerOrdersApi(req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? '').split('?')[0]!;
  if (!path.startsWith('/orders/')) return false;
  const route = path.slice('/orders'.length);
  if (route === '/status') json(res, 200, { status: 'UP' });
  else if (route === '/orders') json(res, 200, ORDERS);
  else if (route.startsWith('/orders/')) {
    const order = ORDERS.find((candidate) => candidate.id === decodeURIComponent(route.slice('/orders/'.length)));
    // The drift the demo shows: this answer gives the total as text, where the spec says a number.
    if (order) json(res, 200, { ...order, total: order.total.toFixed(2) });
    else json(res, 404, { error: 'No such order' });
  } else json(res, 404, { error: 'Not found' });
  return true;
}
