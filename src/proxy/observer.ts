/**
 * Who reads the traffic: the passive judge (the server's side), the client grader (the client's
 * side) and the recorder each get every finished exchange the upstream answered, once.
 */
import type { TrafficExchange } from '../traffic/traffic-exchange.ts';

export interface ExchangeObserver {
  /** Takes one finished exchange. Must not throw for any exchange; a throw is reported once and ignored. */
  observe(traffic: TrafficExchange): void;
}
