export { ElicitationBroker, type ElicitationBrokerOptions, type ElicitationChange } from './elicitation-broker.ts';
