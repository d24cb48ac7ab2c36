export { filterModels, ModelPicker, openModelPicker } from './ModelPicker.tsx';
export { ModelOptions } from './ModelOptions.tsx';
export { ThinkingPicker } from './ThinkingPicker.tsx';
export { useModelList } from './use-model-list.ts';
