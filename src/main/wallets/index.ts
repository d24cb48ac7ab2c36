export { WalletService, type WalletServiceOptions } from './wallet-service.ts';
