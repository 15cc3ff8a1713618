/**
 * Client zoo member: the payment body carries amount as a JSON number — the SDK's model
 * holds amounts as numbers and parses the decimal string before sending (§2.5: amount is
 * a decimal string; §5.1: "body field types must follow the types of the operation's
 * description"). The body is signed as sent: the signature is right, the type is not.
 * @module
 */
import type { Json, Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject } from './_client.js';

class NumericAmountClient extends ZooClient {
  override paymentBody(payment: { readonly [key: string]: Json }): object {
    const amount = payment['amount'];
    // BUG: "amounts are numbers": "25.00" becomes 25 on the way into the model
    return { ...payment, amount: typeof amount === 'string' ? (JSON.parse(amount) as number) : amount };
  }
}

export function createSubject(): Subject {
  return clientSubject('amount-as-number', new NumericAmountClient());
}
