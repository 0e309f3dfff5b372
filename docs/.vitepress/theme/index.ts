/** The default VitePress theme plus the client-side API reference component (`<ApiReference />`). */
import DefaultTheme from "vitepress/theme";
import type { Theme } from "vitepress";
import ApiReference from "./ApiReference.vue";

const theme: Theme = {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("ApiReference", ApiReference);
  },
};
export default theme;
