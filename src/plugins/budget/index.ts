// The bundled budget plugin: spending budgets per session, day or month, checked before every model call.
import { createBudgetPlugin } from './budget-plugin.ts';

export default createBudgetPlugin();
