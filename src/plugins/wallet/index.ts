// The bundled wallet plugin: balances of provider accounts (OpenRouter credits, DeepSeek balance).
import { createWalletPlugin } from './wallet-plugin.ts';

export default createWalletPlugin();
