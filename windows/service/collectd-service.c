/* collectd-winperf. Copyright (c) 2026 the collectd-winperf authors.
 * SPDX-License-Identifier: MIT
 *
 * collectd.exe's Windows main: a console program (as collectd 5.12's
 * src/daemon/cmd_windows.c, which this file replaces in the build) and,
 * started as `collectd.exe --service [-C FILE]`, the Windows service
 * "collectd":
 *
 *  - it connects to the service control manager at once and reports
 *    START_PENDING, then RUNNING only once collectd has read its
 *    configuration and loaded its plugins;
 *  - collectd's log goes through the service's own writer (svc_log.c):
 *    collectd.log in the configuration's directory
 *    (C:\ProgramData\collectd\collectd.log), rotated at 10 MiB with three
 *    old files kept; stdout and stderr go to the same writer, so a
 *    configuration error that keeps collectd from starting is there too
 *    (the service then stops with a service-specific exit code); start,
 *    stop, configuration problems and collectd's errors also go to the
 *    Application Event Log (source "collectd");
 *  - stop and system shutdown wake collectd's main loop (patched in
 *    windows/patches/) and run collectd's own shutdown: read threads
 *    stopped, write queue drained, write plugins flushed; a watchdog ends
 *    the process if that has not finished after 4.5 s, so the service
 *    always stops within 5 s and leaves no collectd.exe behind;
 *  - at each start it generates the configuration file from the template
 *    collectd.conf.template next to collectd.exe and the installer's
 *    settings (svc_config.c), unless the file is an administrator's (its
 *    first line is not the service's marker): that one is used as it is.
 *
 * `collectd.exe --setup ...` is what the MSI runs at install and removal
 * (svc_setup.c).
 *
 * In a console, Ctrl+C, Ctrl+Break and closing the window stop collectd
 * the same clean way. */

#include "cmd.h"
#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

/* The service's parts (svc.h says why they are included here). */
#include "svc.h"
#include "svc_config.c"
#include "svc_log.c"
#include "svc_setup.c"

#define SERVICE_NAME SVC_NAME
/* The SCM's wait hints: loading the plugins, and the stop deadline. */
#define START_WAIT_HINT_MS 30000
#define STOP_WAIT_HINT_MS 5000
#define STOP_DEADLINE_MS 4500
/* Service-specific exit codes (sc query: SERVICE_EXIT_CODE). */
#define EXIT_CONFIG_ERROR 1
#define EXIT_FIRST_CONFIG_ERROR 2

static SERVICE_STATUS_HANDLE svc_handle;
static SERVICE_STATUS svc_status;
static CRITICAL_SECTION svc_lock;
static bool svc_stopping;
static int svc_argc;
static char **svc_argv;
static char config_path[MAX_PATH];
static char data_dir[MAX_PATH];
static HANDLE console_done;

/* -------------------------------------------------------- config path */

/* The -C argument (as collectd's getopt reads it) or collectd's default;
 * data_dir is its directory. */
static void find_config_path(int argc, char **argv) {
  const char *path = CONFIGFILE;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
      path = argv[++i];
    else if (strncmp(argv[i], "-C", 2) == 0 && argv[i][2] != '\0')
      path = argv[i] + 2;
  }
  snprintf(config_path, sizeof(config_path), "%s", path);
  snprintf(data_dir, sizeof(data_dir), "%s", path);
  char *slash = strrchr(data_dir, '\\');
  char *fwd = strrchr(data_dir, '/');
  if (fwd != NULL && (slash == NULL || fwd > slash))
    slash = fwd;
  if (slash != NULL)
    *slash = '\0';
  else
    snprintf(data_dir, sizeof(data_dir), ".");
}

/* ------------------------------------------------------------ service */

/* Reports a state; never after STOPPED, never RUNNING once stopping. */
static void svc_set_status(DWORD state, DWORD specific_exit, DWORD hint) {
  EnterCriticalSection(&svc_lock);
  if (svc_status.dwCurrentState == SERVICE_STOPPED ||
      (state == SERVICE_RUNNING && svc_stopping)) {
    LeaveCriticalSection(&svc_lock);
    return;
  }
  svc_status.dwServiceType = SERVICE_WIN32_OWN_PROCESS;
  svc_status.dwCurrentState = state;
  svc_status.dwControlsAccepted =
      state == SERVICE_STOPPED ? 0
                               : SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN;
  svc_status.dwWin32ExitCode =
      specific_exit != 0 ? ERROR_SERVICE_SPECIFIC_ERROR : NO_ERROR;
  svc_status.dwServiceSpecificExitCode = specific_exit;
  svc_status.dwWaitHint = hint;
  if (state == SERVICE_START_PENDING || state == SERVICE_STOP_PENDING)
    svc_status.dwCheckPoint++;
  else
    svc_status.dwCheckPoint = 0;
  SetServiceStatus(svc_handle, &svc_status);
  LeaveCriticalSection(&svc_lock);
}

/* collectd's shutdown normally takes well under a second; one that hangs
 * (a write plugin blocked on an unreachable server) must not keep the
 * service from stopping or leave a collectd.exe behind. */
static DWORD WINAPI stop_watchdog(LPVOID unused) {
  (void)unused;
  Sleep(STOP_DEADLINE_MS);
  svc_report(SVC_ERR,
             "collectd service: shutdown not finished after %d ms, ending "
             "the process",
             STOP_DEADLINE_MS);
  svc_log_flush_repeats();
  svc_set_status(SERVICE_STOPPED, 0, 0);
  TerminateProcess(GetCurrentProcess(), 1);
  return 0;
}

static void svc_request_stop(const char *why) {
  EnterCriticalSection(&svc_lock);
  bool first = !svc_stopping;
  svc_stopping = true;
  LeaveCriticalSection(&svc_lock);
  if (!first)
    return;
  svc_note(SVC_INFO, "collectd service: %s, stopping", why);
  svc_set_status(SERVICE_STOP_PENDING, 0, STOP_WAIT_HINT_MS);
  HANDLE t = CreateThread(NULL, 0, stop_watchdog, NULL, 0, NULL);
  if (t != NULL)
    CloseHandle(t);
  stop_collectd();
}

static DWORD WINAPI svc_control(DWORD control, DWORD type, LPVOID data,
                                LPVOID context) {
  (void)type;
  (void)data;
  (void)context;
  switch (control) {
  case SERVICE_CONTROL_STOP:
    svc_request_stop("stop requested");
    return NO_ERROR;
  case SERVICE_CONTROL_SHUTDOWN:
    svc_request_stop("system shutdown");
    return NO_ERROR;
  case SERVICE_CONTROL_INTERROGATE:
    return NO_ERROR;
  default:
    return ERROR_CALL_NOT_IMPLEMENTED;
  }
}

/* init_config() calls exit() when the configuration cannot be read: tell
 * the SCM it stopped with an error (not a crash, so no restart loop). */
static void svc_atexit(void) {
  EnterCriticalSection(&svc_lock);
  bool stopped = svc_status.dwCurrentState == SERVICE_STOPPED;
  LeaveCriticalSection(&svc_lock);
  if (stopped)
    return;
  svc_log_stop_stdio(); /* collectd's "Parsing ... failed" comes that way */
  char why[800];
  svc_log_recent_errors(why, sizeof(why));
  svc_report(SVC_ERR,
             "collectd service: collectd did not start: the configuration "
             "%s has errors (the service stops with exit code %d). Last "
             "messages: %s",
             config_path, EXIT_CONFIG_ERROR, why[0] != '\0' ? why : "none");
  svc_log_close();
  svc_set_status(SERVICE_STOPPED, EXIT_CONFIG_ERROR, 0);
}

static void WINAPI svc_main(DWORD argc, LPSTR *argv) {
  (void)argc;
  (void)argv;
  svc_handle = RegisterServiceCtrlHandlerExA(SERVICE_NAME, svc_control, NULL);
  if (svc_handle == NULL)
    return;
  svc_set_status(SERVICE_START_PENDING, 0, START_WAIT_HINT_MS);
  svc_log_open(data_dir);
  svc_log_capture_stdio();
  svc_report(SVC_INFO,
             "collectd service: starting (collectd %s, pid %lu, "
             "configuration %s)",
             PACKAGE_VERSION, (unsigned long)GetCurrentProcessId(),
             config_path);
  if (svc_config_prepare(config_path, data_dir) != 0) {
    svc_report(SVC_ERR,
               "collectd service: not started: no usable configuration "
               "(exit code %d)",
               EXIT_FIRST_CONFIG_ERROR);
    svc_log_close();
    svc_set_status(SERVICE_STOPPED, EXIT_FIRST_CONFIG_ERROR, 0);
    return;
  }
  /* collectd's log callback needs its plugin context; init_config()
   * initializes it again (a second thread-local key, nothing lost). */
  plugin_init_ctx();
  svc_log_register_collectd();
  atexit(svc_atexit);
  struct cmdline_config config = init_config(svc_argc, svc_argv);
  svc_set_status(SERVICE_RUNNING, 0, 0);
  svc_note(SVC_INFO, "collectd service: configuration read, running");
  int status = run_loop(config.test_readall);
  svc_report(SVC_INFO, "collectd service: stopped (collectd's exit status %d)",
             status);
  svc_log_close();
  /* A requested stop is a clean stop even if a plugin's init had failed. */
  svc_set_status(SERVICE_STOPPED, svc_stopping ? 0 : (DWORD)status, 0);
}

/* ------------------------------------------------------------ console */

static BOOL WINAPI console_control(DWORD event) {
  switch (event) {
  case CTRL_C_EVENT:
  case CTRL_BREAK_EVENT:
    stop_collectd();
    return TRUE;
  case CTRL_CLOSE_EVENT:
  case CTRL_LOGOFF_EVENT:
  case CTRL_SHUTDOWN_EVENT:
    /* The process ends when this returns: let collectd finish first. */
    stop_collectd();
    WaitForSingleObject(console_done, STOP_DEADLINE_MS);
    return TRUE;
  default:
    return FALSE;
  }
}

int main(int argc, char **argv) {
  WSADATA wsaData;
  WORD wVersionRequested = MAKEWORD(2, 2);
  int err = WSAStartup(wVersionRequested, &wsaData);
  if (err != 0) {
    fprintf(stderr, "collectd: WSAStartup failed with error: %d\n", err);
    return 1;
  }

  if (argc > 1 && strcmp(argv[1], "--setup") == 0)
    return svc_setup_main(argc, argv);

  if (argc > 1 && strcmp(argv[1], "--service") == 0) {
    InitializeCriticalSection(&svc_lock);
    /* collectd's own options, without --service. */
    svc_argc = argc - 1;
    svc_argv = calloc((size_t)argc, sizeof(*svc_argv));
    if (svc_argv == NULL)
      return 1;
    svc_argv[0] = argv[0];
    for (int i = 2; i < argc; i++)
      svc_argv[i - 1] = argv[i];
    find_config_path(svc_argc, svc_argv);
    SERVICE_TABLE_ENTRYA table[] = {{(LPSTR)SERVICE_NAME, svc_main},
                                    {NULL, NULL}};
    if (!StartServiceCtrlDispatcherA(table)) {
      fprintf(stderr,
              "collectd: --service: not started by the service control "
              "manager (error %lu); run collectd.exe -f in a console\n",
              (unsigned long)GetLastError());
      return 1;
    }
    return svc_status.dwServiceSpecificExitCode != 0 ? 1 : 0;
  }

  console_done = CreateEventA(NULL, TRUE, FALSE, NULL);
  SetConsoleCtrlHandler(console_control, TRUE);
  struct cmdline_config config = init_config(argc, argv);
  int status = run_loop(config.test_readall);
  if (console_done != NULL)
    SetEvent(console_done);
  return status;
}
