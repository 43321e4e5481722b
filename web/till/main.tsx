import { render } from "preact";
import "../ui/tokens.css";
import "./till.css";
import "./sell-layout.css";
import { App } from "./app.tsx";
import { registerServiceWorker } from "./offline/index.ts";

const root = document.getElementById("app");
if (root !== null) {
  render(<App />, root);
}
registerServiceWorker();
