export * from './elicitation-form.ts';
export * from './elicitation-values.ts';
