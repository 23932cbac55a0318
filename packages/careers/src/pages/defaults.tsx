/** The site's own pages, used for every renderer the host does not replace. */

import { JobListPage } from "./job-list";
import { JobPage } from "./job-page";
import type { CareersRenderers } from "./renderers";
import { AppliedPage, GonePage, MessagePage, ReviewPage } from "./simple-pages";

const renderers: CareersRenderers = {
  jobList: (props) => <JobListPage {...props} />,
  jobPage: (props) => <JobPage {...props} />,
  applied: (props) => <AppliedPage {...props} />,
  gone: (props) => <GonePage {...props} />,
  review: (props) => <ReviewPage {...props} />,
  message: (props) => <MessagePage {...props} />,
};

export const DEFAULT_RENDERERS: CareersRenderers = Object.freeze(renderers);
