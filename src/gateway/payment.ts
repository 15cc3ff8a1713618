/**
 * POST /pg/v2/payment/create as the reference gateway plays it (spec §2.5, §3, §4.3):
 * the body's types are checked against `payment-create.schema.json` (amount a decimal
 * string, currency a code, payer, payMethod and tradeEnv objects …), and a created
 * payment answers with status PENDING and refundStatus NO_REFUND, the only values seen.
 * Everything else about payments is "not shown"; the choices are documented in the schema.
 * @module
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { compileSchema, describeJson } from './_ajv.js';
import schema from './payment-create.schema.json' with { type: 'json' };

/** The JSON Schema of the payment creation body (draft 2020-12). */
export const PAYMENT_CREATE_SCHEMA: object = schema;

/** The rule a payment field breaks. */
export type PaymentRule = 'required' | 'type' | 'format';

/** A refusal of the body: the field (a dotted path, `body` for the body itself), the rule, and why. */
export interface PaymentProblem {
  readonly field: string;
  readonly rule: PaymentRule;
  readonly message: string;
}

/** A payment body that passed the schema (other fields may be present, and are ignored). */
export interface PaymentRequest {
  readonly merchantTradeNo: string;
  readonly amount: string;
  readonly currency: string;
  readonly merchantAttach?: string;
}

/** The outcome of {@link checkPaymentBody}. */
export type PaymentBodyOutcome =
  | { readonly valid: true; readonly payment: PaymentRequest }
  | { readonly valid: false; readonly problem: PaymentProblem };

/**
 * Checks a parsed payment body against the schema; reports the first problem, naming the field and the rule.
 * @param body - the parsed JSON body
 * @returns valid with the payment, or the problem
 * @example
 * checkPaymentBody({ merchantTradeNo: 'M1', amount: 10, currency: 'USD' }).valid // false — amount breaks type
 */
export function checkPaymentBody(body: unknown): PaymentBodyOutcome {
  const validate = compileSchema(schema);
  if (validate(body)) return { valid: true, payment: body as PaymentRequest };
  // A failed validation has at least one error; the first is reported.
  return { valid: false, problem: toProblem((validate.errors as ErrorObject[])[0] as ErrorObject) };
}

/**
 * The data of a created payment (the field names of 2.5's redirect example).
 * @param payment - the checked request
 * @param paymentNo - the new payment number
 * @param now - the gateway clock, milliseconds
 * @returns the data object of the envelope
 * @example createdPayment({ merchantTradeNo: 'M1', amount: '10.00', currency: 'USD' }, 'P1', 0).status // 'PENDING'
 */
export function createdPayment(
  payment: PaymentRequest,
  paymentNo: string,
  now: number,
): { readonly [key: string]: string } {
  return {
    paymentNo,
    merchantTradeNo: payment.merchantTradeNo,
    amount: payment.amount,
    currency: payment.currency,
    status: 'PENDING',
    refundStatus: 'NO_REFUND',
    createdTime: new Date(now).toISOString().replace('Z', '+00:00'),
    ...(payment.merchantAttach !== undefined ? { merchantAttach: payment.merchantAttach } : {}),
  };
}

// --- internal ---

const FORMATS: Readonly<Record<string, string>> = {
  amount: 'a decimal string such as "10.00" (digits, optionally "." and digits)',
  currency: 'a currency code of three upper-case letters such as "USD"',
  notifyUrl: 'an absolute http(s) URL',
  returnUrl: 'an absolute http(s) URL',
};

function toProblem(e: ErrorObject): PaymentProblem {
  const path = e.instancePath.split('/').slice(1);
  if (e.keyword === 'required') {
    const field = [...path, String(e.params['missingProperty'])].join('.');
    return { field, rule: 'required', message: `${field} breaks required: ${field} is required (2.5)` };
  }
  const field = path.join('.') || 'body';
  const got = describeJson(e.data);
  if (e.keyword === 'type') {
    const want = String(e.params['type']);
    const what =
      field === 'body'
        ? 'the body must be a JSON object'
        : `${field} must be ${want === 'object' ? 'an object' : `a ${want}`}`;
    return { field, rule: 'type', message: `${field} breaks type: ${what}; got ${got} (2.5)` };
  }
  if (e.keyword === 'minLength')
    return { field, rule: 'required', message: `${field} breaks required: ${field} must not be empty (2.5)` };
  return {
    field,
    rule: 'format',
    message: `${field} breaks format: ${field} must be ${FORMATS[field] as string}; got ${got} (2.5)`,
  };
}
