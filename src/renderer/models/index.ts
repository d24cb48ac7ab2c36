export { filterModels, ModelPicker, openModelPicker } from './ModelPicker.tsx';
export { ThinkingPicker } from './ThinkingPicker.tsx';
