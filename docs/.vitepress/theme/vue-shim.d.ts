/** Single-file components, for the TypeScript of the theme (vue-tsc is not part of the workspace's typecheck). */
declare module "*.vue" {
  import type { DefineComponent } from "vue";
  const component: DefineComponent;
  export default component;
}
