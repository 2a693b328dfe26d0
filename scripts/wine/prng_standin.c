/* A stand-in bcryptprimitives.dll for running hisha.exe under Debian's wine 8, which
 * lacks it. Rust's standard library on Windows imports ProcessPrng from it (Windows 10
 * and later have it). For tests under wine only: never shipped. ProcessPrng fills the
 * buffer from RtlGenRandom (advapi32's SystemFunction036). */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
