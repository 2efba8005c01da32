// Unit tests of the panel's pure modules, run in the browser the checks use (Tests/Panel/panel-unit-check.sh opens
// /tests/ on a gateway serving the working tree's Panel/). Each test is a name and a body that throws on a failure;
// the page lists each, and `window.results` holds what the check reads.
import { run } from "./harness.js";
import "./values.js";
import "./faces.js";

run();
