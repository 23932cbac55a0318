import { coreHttpProject } from "./test/core-http/project";

export default coreHttpProject("mysql");
