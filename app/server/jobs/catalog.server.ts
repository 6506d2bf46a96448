// Every kind of job this app runs, registered at boot (boot.server.ts imports this module before
// startJobs). Each kind is defined beside the code that queues it; the queues and their retry
// policies are in queues.server.ts.
import "../ads/sync/scheduler.server";
import "../changes/history-import.server";
import "../changes/settle-jobs.server";
import "../email/outbox.server";
import "../optimizer/engine-job.server";
import "../impact/job.server";
import "../agency/alert-job.server";
import "../agency/alert-webhook.server";
import "../agency/alert-digest.server";
