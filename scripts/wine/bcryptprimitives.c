/*
 * bcryptprimitives.c — a stand-in for Windows' bcryptprimitives.dll, for
 * smoke tests under wine only (scripts/smoke.sh builds it into the wine
 * prefix). Rust's standard library draws random bytes from ProcessPrng in
 * that DLL, which every supported Windows (10 and later) has but wine 8
 * (Debian 12) lacks. This one fills the buffer from RtlGenRandom
 * (advapi32's SystemFunction036). It never ships with gopi.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
